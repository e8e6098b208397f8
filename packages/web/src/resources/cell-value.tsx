import { CheckCircleFilled, MinusCircleOutlined } from '@ant-design/icons';
import { type FieldDef, isSafeLink } from '@lampyr/contract';
import { Badge, Flex, Tag, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../lib/format.ts';
import type { ResourceLabels } from './labels.ts';

dayjs.extend(localizedFormat);

/**
 * States that read at a glance across resources (a write's progress, a device's connection): a
 * coloured dot beside text in the text colour, which keeps its contrast where a tinted tag would not.
 */
const STATES: Record<string, 'default' | 'processing' | 'success' | 'error' | 'warning'> = {
  pending: 'default',
  sent: 'processing',
  acknowledged: 'success',
  failed: 'error',
  online: 'success',
  offline: 'error',
  out_of_range: 'warning',
};

/** How a value of a field kind reads in a table cell or a detail view. */
export function CellValue({
  name,
  def,
  value,
  labels,
  referenceName,
}: {
  name: string;
  def: FieldDef | undefined;
  value: unknown;
  labels: ResourceLabels;
  referenceName?: string;
}): ReactNode {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const format = useFormat();
  if (value === null || value === undefined || value === '')
    return <Typography.Text type="secondary">–</Typography.Text>;
  const kind = def?.kind ?? (name === 'createdAt' || name === 'updatedAt' ? 'datetime' : 'text');
  switch (kind) {
    case 'boolean':
      return value ? (
        <Flex align="center" gap={token.marginXXS}>
          <CheckCircleFilled style={{ color: token.colorSuccess }} aria-hidden />
          {t('value.yes')}
        </Flex>
      ) : (
        <Flex align="center" gap={token.marginXXS}>
          <MinusCircleOutlined style={{ color: token.colorTextTertiary }} aria-hidden />
          {t('value.no')}
        </Flex>
      );
    case 'enum': {
      const state = STATES[String(value)];
      const text = labels.option(name, String(value));
      return state ? <Badge status={state} text={text} /> : <Tag>{text}</Tag>;
    }
    case 'reference':
      return referenceName ?? `#${String(value)}`;
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value);
      // Grouping and decimals by the person's language (1.641,02 in Turkish); whole numbers
      // (ports, counts, years) stay as written.
      return Number.isFinite(n) ? format.number(n, 6) : String(value);
    }
    case 'date':
      return dayjs(String(value)).format('L');
    case 'datetime':
      return dayjs(String(value)).format('L LT');
    case 'color':
      return (
        <Flex align="center" gap={token.marginXS}>
          <span
            aria-hidden
            style={{
              width: 16,
              height: 16,
              borderRadius: token.borderRadiusSM,
              border: `1px solid ${token.colorBorder}`,
              background: String(value),
            }}
          />
          {String(value)}
        </Flex>
      );
    case 'url':
    case 'image':
      // Only http(s) and data images become links: a stored `javascript:` must never be clickable.
      if (!isSafeLink(kind, String(value))) return <Typography.Text>{String(value)}</Typography.Text>;
      return (
        <Typography.Link href={String(value)} target="_blank" rel="noreferrer" ellipsis style={{ maxWidth: 240 }}>
          {String(value)}
        </Typography.Link>
      );
    case 'email':
      return <Typography.Link href={`mailto:${String(value)}`}>{String(value)}</Typography.Link>;
    case 'json':
      return (
        <Typography.Text code ellipsis style={{ maxWidth: 240 }}>
          {JSON.stringify(value)}
        </Typography.Text>
      );
    case 'secret':
      return '••••••';
    default:
      return String(value);
  }
}
