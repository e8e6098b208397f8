import { useSearchParams } from 'react-router';
import ResourcePage from '../../resources/resource-page.tsx';
import { DEVICE_ACTION_OF, DeviceActions } from './device-actions-page.tsx';

/**
 * Assets and devices → configuration: the node-loss settings, or — opened from one of the menu's
 * device actions (`?action=config-deploy` …) — that action's screen.
 */
export default function ConfigurationPage() {
  const [search] = useSearchParams();
  const action = search.get('action');
  if (action && action in DEVICE_ACTION_OF) return <DeviceActions key={action} slug={action} />;
  return <ResourcePage resource="device-node-loss-settings" />;
}
