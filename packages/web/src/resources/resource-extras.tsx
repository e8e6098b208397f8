import { findResource, getResource, type ResourceDef } from '@lampyr/contract';
import { Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useList } from '../data/device-data.ts';
import { recordLabel } from '../data/reference-data.ts';
import { type Formatter, useFormat } from '../lib/format.ts';
import type { ListParams, Row } from '../lib/resource-api.ts';

/**
 * How some logs read beyond their stored columns: the write log's commands as commands ("Off",
 * "Dim 40 %", who sent them) and the transaction log's people, resource labels and record names.
 * `cells` replace a field's cell, `columns` are added after the fields, `locked` rows offer no
 * edit or delete (a sent command).
 */
export interface ResourceExtras {
  cells: Record<string, (row: Row) => ReactNode>;
  columns: { key: string; title: string; render: (row: Row) => ReactNode }[];
  locked: (row: Row) => boolean;
}

const NONE: ResourceExtras = { cells: {}, columns: [], locked: () => false };

const byIds = (ids: readonly number[], extra: Record<string, unknown> = {}, size = 1000): ListParams => ({
  filter: { ...extra, ...(ids.length ? { id: [...ids] } : {}) },
  detailFilter: [],
  selectedColumns: null,
  pageable: { page: 1, size, sort: [] },
});

const numbers = (rows: readonly Row[], field: string) =>
  [...new Set(rows.map((r) => r[field]).filter((v): v is number => typeof v === 'number'))].sort((a, b) => a - b);

/** A channel write as the command it is. */
export function commandText(
  code: string | undefined,
  label: string | undefined,
  value: number,
  t: (key: string, vars?: Record<string, unknown>) => string,
  format: Formatter,
): string {
  if (code === 'lamp') return value ? t('liveControl.on') : t('liveControl.off');
  if (code === 'dim')
    return value === 0 ? t('liveControl.off') : t('writeLog.dim', { level: format.percent(value, 0) });
  return t('writeLog.write', { channel: label ?? code ?? '', value: format.number(value) });
}

function useWriteLogExtras(rows: readonly Row[], enabled: boolean): ResourceExtras {
  const { t } = useTranslation();
  const format = useFormat();
  const templateIds = numbers(rows, 'deviceChannelTemplateId');
  const ids = numbers(rows, 'id');
  const templates = useList('device-channel-templates', byIds(templateIds), {
    enabled: enabled && templateIds.length > 0,
    global: true,
  });
  // Who sent each command: the transaction log of its creation.
  const created = useList(
    'transaction-logs',
    {
      ...byIds([], { resource: 'channel-write-values', action: 'create', recordId: ids }),
      selectedColumns: { userId: true, recordId: true },
    },
    { enabled: enabled && ids.length > 0 },
  );
  const senderOf = new Map<number, number>();
  for (const log of created.data?.content ?? [])
    if (typeof log.recordId === 'number' && typeof log.userId === 'number') senderOf.set(log.recordId, log.userId);
  const userIds = [...new Set(senderOf.values())].sort((a, b) => a - b);
  const users = useList('users', byIds(userIds), { enabled: enabled && userIds.length > 0 });
  const userName = new Map((users.data?.content ?? []).map((u) => [u.id, personLabel(u)]));
  const template = new Map((templates.data?.content ?? []).map((r) => [r.id, r]));
  if (!enabled) return NONE;
  return {
    cells: {
      value: (row) => {
        const tpl = template.get(row.deviceChannelTemplateId as number);
        const label = tpl ? recordLabel('device-channel-templates', tpl) : undefined;
        return commandText(tpl?.channelCode as string | undefined, label, Number(row.value), t, format);
      },
    },
    columns: [
      {
        key: 'sentBy',
        title: t('writeLog.sentBy'),
        render: (row) => {
          const user = senderOf.get(row.id);
          if (user !== undefined) return userName.get(user) ?? t('writeLog.person', { id: user });
          const source = typeof row.operationSource === 'string' ? row.operationSource : '';
          return source ? (
            <Tag>{t(`writeLog.source.${source}`, { defaultValue: source })}</Tag>
          ) : (
            <Typography.Text type="secondary">–</Typography.Text>
          );
        },
      },
    ],
    locked: (row) => row.status !== 'pending',
  };
}

export function personLabel(user: Row): string {
  const name = [user.firstName, user.lastName].filter((v) => typeof v === 'string' && v).join(' ');
  const email = typeof user.email === 'string' ? user.email : '';
  return name && email ? `${name} <${email}>` : name || email || `#${user.id}`;
}

/** The display value of a record kept in a log's JSON snapshot. */
function snapshotName(resource: ResourceDef | undefined, row: Row): string | undefined {
  if (!resource) return undefined;
  for (const side of ['after', 'before'] as const) {
    const snapshot = row[side];
    if (snapshot && typeof snapshot === 'object') {
      const value = (snapshot as Record<string, unknown>)[resource.display];
      if (value !== undefined && value !== null && value !== '' && resource.display !== 'id') return String(value);
    }
  }
  return undefined;
}

function useTransactionLogExtras(rows: readonly Row[], enabled: boolean): ResourceExtras {
  const { t } = useTranslation();
  const userIds = numbers(rows, 'userId');
  const users = useList('users', byIds(userIds), { enabled: enabled && userIds.length > 0 });
  const userName = new Map((users.data?.content ?? []).map((u) => [u.id, personLabel(u)]));
  if (!enabled) return NONE;
  return {
    cells: {
      userId: (row) =>
        typeof row.userId === 'number'
          ? (userName.get(row.userId) ?? t('writeLog.person', { id: row.userId }))
          : t('transactionLog.system'),
      resource: (row) => {
        const name = String(row.resource ?? '');
        return findResource(name) ? t(`resources:${name}.title`) : name;
      },
      recordId: (row) => {
        const name = snapshotName(findResource(String(row.resource ?? '')), row);
        return name ? `${name} (#${String(row.recordId)})` : `#${String(row.recordId ?? '–')}`;
      },
    },
    columns: [],
    locked: () => false,
  };
}

/**
 * The people of a sub-account: the integrator's staff who act there are marked, and are edited or
 * removed in the integrator's account, not here (the server refuses it too).
 */
function useUserExtras(): ResourceExtras {
  const { t } = useTranslation();
  return {
    cells: {
      integratorStaff: (row) =>
        row.integratorStaff === true ? (
          <Tag color="blue" title={t('users.integratorStaffHint')}>
            {t('resources:fields.integratorStaff')}
          </Tag>
        ) : (
          <Typography.Text type="secondary">–</Typography.Text>
        ),
    },
    columns: [],
    locked: (row) => row.integratorStaff === true,
  };
}

/** The extras of a resource's generic screen (none for most). */
export function useResourceExtras(resource: ResourceDef, rows: readonly Row[]): ResourceExtras {
  const write = useWriteLogExtras(rows, resource.name === 'channel-write-values');
  const transactions = useTransactionLogExtras(rows, resource.name === getResource('transaction-logs').name);
  const users = useUserExtras();
  if (resource.name === 'channel-write-values') return write;
  if (resource.name === 'transaction-logs') return transactions;
  if (resource.name === 'users') return users;
  return NONE;
}
