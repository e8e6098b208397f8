import type { DeviceLogin } from '@lampyr/contract';
import { useMutation } from '@tanstack/react-query';
import { request } from '../lib/api-client.ts';

/** Show or replace an IP device's broker login; nothing is cached (the password shows only while asked for). */
export function useDeviceCredentials(
  deviceId: number,
  onLogin: (login: DeviceLogin, action: 'reveal' | 'rotate') => void,
) {
  const call = (action: 'reveal' | 'rotate') =>
    request<DeviceLogin>('command', `devices/${deviceId}/credentials/${action}`, { method: 'POST', body: {} });
  const reveal = useMutation({ mutationFn: () => call('reveal'), onSuccess: (login) => onLogin(login, 'reveal') });
  const rotate = useMutation({ mutationFn: () => call('rotate'), onSuccess: (login) => onLogin(login, 'rotate') });
  return { reveal, rotate };
}
