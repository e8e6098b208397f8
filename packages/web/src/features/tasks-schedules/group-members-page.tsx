import { UsergroupAddOutlined } from '@ant-design/icons';
import type { MemberSource } from '@lampyr/contract';
import { App, Button, Card, Flex, Form, Segmented, Select, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useRecord } from '../../data/device-data.ts';
import { useAddGroupMembers, useStreets } from '../../data/lamp-states.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import ResourcePage from '../../resources/resource-page.tsx';
import { type Area, AreaSelectMap } from './area-select-map.tsx';

type Source = 'street' | 'region' | 'area';

/**
 * Tasks → Task group members: fill a task group's member list from a street, a region or a
 * rectangle drawn on the map (a group with listed members runs on them alone), above the list of
 * members (of the chosen group).
 */
export default function GroupMembersPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message, modal } = App.useApp();
  const [search, setSearch] = useSearchParams();
  const taskGroupId = Number(search.get('taskGroupId')) || undefined;
  const group = useRecord('task-groups', taskGroupId);
  const [source, setSource] = useState<Source>('street');
  const [street, setStreet] = useState<string>();
  const [regionId, setRegionId] = useState<number>();
  const [area, setArea] = useState<Area>();
  const streets = useStreets();
  const add = useAddGroupMembers(taskGroupId ?? 0);

  const body: MemberSource | undefined =
    source === 'street'
      ? street
        ? { street, ...(regionId ? { regionId } : {}) }
        : undefined
      : source === 'region'
        ? regionId
          ? { regionId }
          : undefined
        : area
          ? { bounds: area }
          : undefined;

  const submit = () => {
    if (!body || !taskGroupId) return;
    modal.confirm({
      title: t('groupMembers.add'),
      content: t('groupMembers.confirm', { group: String(group.data?.name ?? taskGroupId) }),
      okText: t('groupMembers.add'),
      onOk: async () => {
        try {
          const result = await add.mutateAsync(body);
          message.success(t('groupMembers.added', { added: result.added, matched: result.matched }));
        } catch (error) {
          message.error(errorMessage(error, t));
        }
      },
    });
  };

  return (
    <Flex vertical gap={token.margin}>
      <Card title={t('groupMembers.title')} size="small">
        <Form layout="vertical" style={{ maxWidth: 960 }} onFinish={submit}>
          <Form.Item label={t('groupMembers.group')} required>
            <div style={{ maxWidth: 360 }}>
              <ReferenceSelect
                prefix="task-groups"
                aria-label={t('groupMembers.group')}
                placeholder={t('groupMembers.chooseGroup')}
                value={taskGroupId ?? null}
                onChange={(v) =>
                  setSearch(
                    (current) => {
                      const next = new URLSearchParams(current);
                      if (typeof v === 'number') next.set('taskGroupId', String(v));
                      else next.delete('taskGroupId');
                      return next;
                    },
                    { replace: true },
                  )
                }
              />
            </div>
          </Form.Item>
          <Form.Item label={t('groupMembers.from')}>
            <Segmented<Source>
              value={source}
              onChange={setSource}
              options={(['street', 'region', 'area'] as const).map((v) => ({
                value: v,
                label: t(`groupMembers.${v}`),
              }))}
            />
          </Form.Item>
          {source === 'street' && (
            <Form.Item label={t('street.label')} required>
              <Select
                showSearch
                allowClear
                style={{ maxWidth: 360 }}
                aria-label={t('street.label')}
                placeholder={t('groupMembers.streetRequired')}
                value={street}
                onChange={setStreet}
                options={(streets.data ?? []).map((s) => ({ value: s.street, label: `${s.street} (${s.devices})` }))}
              />
            </Form.Item>
          )}
          {source !== 'area' && (
            <Form.Item label={t('overrides.region')} required={source === 'region'}>
              <div style={{ maxWidth: 360 }}>
                <ReferenceSelect
                  prefix="regions"
                  aria-label={t('overrides.region')}
                  placeholder={source === 'region' ? t('groupMembers.regionRequired') : undefined}
                  value={regionId ?? null}
                  onChange={(v) => setRegionId(typeof v === 'number' ? v : undefined)}
                />
              </div>
            </Form.Item>
          )}
          {source === 'area' && (
            <Form.Item>
              <AreaSelectMap area={area} onChange={setArea} />
            </Form.Item>
          )}
          <Button
            type="primary"
            htmlType="submit"
            icon={<UsergroupAddOutlined />}
            disabled={!body || !taskGroupId}
            loading={add.isPending}
          >
            {t('groupMembers.add')}
          </Button>
        </Form>
      </Card>
      <ResourcePage
        resource="task-group-members"
        tableKey={taskGroupId ? `task-group-members:${taskGroupId}` : 'task-group-members'}
        fixedFilter={taskGroupId ? { taskGroupId } : undefined}
      />
    </Flex>
  );
}
