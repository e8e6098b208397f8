import type { PlatformAccount, PlatformUser } from '@lampyr/contract';
import { Alert, App, Card, Flex, Select, Switch, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { usePlatformAccounts, usePlatformChange, usePlatformUsers } from '../../data/platform.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { ScrollTable } from '../../resources/scroll-table.tsx';

/**
 * The platform operators' screen: the account tree (integrator, parent, active) and who is a
 * platform operator. The server refuses every call here from anyone else.
 */
export default function PlatformPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const accounts = usePlatformAccounts();
  const users = usePlatformUsers();
  const change = usePlatformChange({
    onSaved: () => message.success(t('platform.saved')),
    onError: (e) => message.error(errorMessage(e, t)),
  });

  const rows = accounts.data ?? [];
  const nameOf = new Map(rows.map((a) => [a.id, a.name]));
  const busy = change.isPending;

  return (
    <Flex vertical gap={token.marginLG}>
      <ScreenTitle title={t('platform.title')} />
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('platform.intro')}
      </Typography.Paragraph>
      <Card title={t('platform.accounts')}>
        {accounts.isError && <Alert type="error" showIcon role="alert" title={t('platform.loadFailed')} />}
        <ScrollTable<PlatformAccount>
          rowKey="id"
          size="small"
          loading={accounts.isPending}
          dataSource={rows}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          columns={[
            { key: 'name', title: t('platform.account'), dataIndex: 'name' },
            {
              key: 'parent',
              title: t('platform.parent'),
              render: (_, a) => (
                <Select<number | 'top'>
                  aria-label={`${t('platform.parent')}: ${a.name}`}
                  style={{ minWidth: 220 }}
                  value={a.accountId ?? 'top'}
                  disabled={busy}
                  options={[
                    { value: 'top', label: t('platform.topLevel') },
                    ...rows
                      .filter((p) => p.isIntegrator && p.id !== a.id)
                      .map((p) => ({ value: p.id, label: nameOf.get(p.id) })),
                  ]}
                  onChange={(value) =>
                    change.mutate({
                      path: 'accounts/parent',
                      body: { accountId: a.id, parentId: value === 'top' ? null : value },
                    })
                  }
                />
              ),
            },
            {
              key: 'integrator',
              title: t('platform.integrator'),
              render: (_, a) => (
                <Switch
                  aria-label={`${t('platform.integrator')}: ${a.name}`}
                  checked={a.isIntegrator}
                  disabled={busy}
                  onChange={(isIntegrator) =>
                    change.mutate({ path: 'accounts/integrator', body: { accountId: a.id, isIntegrator } })
                  }
                />
              ),
            },
            {
              key: 'active',
              title: t('platform.active'),
              render: (_, a) => (
                <Switch
                  aria-label={`${t('platform.active')}: ${a.name}`}
                  checked={a.isActive}
                  disabled={busy}
                  onChange={(isActive) =>
                    change.mutate({ path: 'accounts/active', body: { accountId: a.id, isActive } })
                  }
                />
              ),
            },
          ]}
        />
      </Card>
      <Card title={t('platform.operators')}>
        {users.isError && <Alert type="error" showIcon role="alert" title={t('platform.loadFailed')} />}
        <ScrollTable<PlatformUser>
          rowKey="id"
          size="small"
          loading={users.isPending}
          dataSource={users.data ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          columns={[
            { key: 'email', title: t('platform.email'), dataIndex: 'email' },
            { key: 'name', title: t('platform.name'), render: (_, u) => `${u.firstName} ${u.lastName}`.trim() },
            {
              key: 'operator',
              title: t('platform.operator'),
              render: (_, u) => (
                <Switch
                  aria-label={`${t('platform.operator')}: ${u.email}`}
                  checked={u.isPlatformOperator}
                  disabled={busy}
                  onChange={(isPlatformOperator) =>
                    change.mutate({ path: 'operators', body: { userId: u.id, isPlatformOperator } })
                  }
                />
              ),
            },
          ]}
        />
      </Card>
    </Flex>
  );
}
