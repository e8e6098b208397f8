import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChannelKind } from '../../data/channel-choice.ts';

/** Picks a channel across every model by its code, labelled with its unit. */
export function ChannelKindSelect({
  kinds,
  value,
  onChange,
}: {
  kinds: readonly ChannelKind[];
  value: string | undefined;
  onChange: (code: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Select<string>
      aria-label={t('chart.channel')}
      style={{ width: 220 }}
      value={value}
      onChange={onChange}
      options={kinds.map((k) => ({ value: k.code, label: k.unit ? `${k.label} (${k.unit})` : k.label }))}
    />
  );
}
