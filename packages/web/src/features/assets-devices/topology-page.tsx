import { ApartmentOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Flex, Spin, Tree, Typography, theme } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { useList, useRecord } from '../../data/device-data.ts';
import { recordLabel } from '../../data/reference-data.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { buildTopologyTree, type TopologyNode } from './topology-tree.ts';

/** device-topology/{id}: the devices linked in one topology type, parent above its children. */
export default function TopologyPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const id = Number(useParams().id);
  const type = useRecord('device-topology-types', Number.isFinite(id) ? id : undefined);
  const links = useList('device-topology', {
    filter: { topologyId: id },
    detailFilter: [],
    selectedColumns: null,
    pageable: { page: 1, size: 1000, sort: [] },
  });
  const rows = links.data?.content ?? [];
  const deviceIds = [...new Set(rows.flatMap((r) => [r.parentDeviceId as number, r.childDeviceId as number]))].sort(
    (a, b) => a - b,
  );
  const names = useList(
    'devices',
    {
      filter: { id: deviceIds },
      detailFilter: [],
      selectedColumns: { name: true },
      pageable: { page: 1, size: 1000, sort: [] },
    },
    { enabled: deviceIds.length > 0 },
  );
  const nameOf = new Map((names.data?.content ?? []).map((d) => [d.id, recordLabel('devices', d)]));
  const describe = new Map(rows.map((r) => [r.childDeviceId as number, r.description]));

  const toData = (node: TopologyNode, path: string): DataNode => {
    const key = `${path}/${node.id}`;
    const note = describe.get(node.id);
    return {
      key,
      title: (
        <span>
          <Link to={`/assets-devices/device-details?id=${node.id}`}>{nameOf.get(node.id) ?? `#${node.id}`}</Link>
          {typeof note === 'string' && note !== '' && (
            <Typography.Text type="secondary" style={{ marginInlineStart: token.marginXS }}>
              {note}
            </Typography.Text>
          )}
        </span>
      ),
      children: node.children.map((c) => toData(c, key)),
    };
  };
  const tree = buildTopologyTree(
    rows.map((r) => ({ parentDeviceId: r.parentDeviceId as number, childDeviceId: r.childDeviceId as number })),
  );
  const title = type.data ? recordLabel('device-topology-types', type.data) : t('topology.title', { id });

  return (
    <Card>
      <ScreenTitle
        spaced
        title={
          <>
            <ApartmentOutlined style={{ marginInlineEnd: token.marginXS }} />
            {title}
          </>
        }
      >
        <Link to="/assets-devices/device-topology">
          <Button>{t('topology.edit')}</Button>
        </Link>
      </ScreenTitle>
      {typeof type.data?.description === 'string' && (
        <Typography.Paragraph type="secondary">{type.data.description}</Typography.Paragraph>
      )}
      {links.isPending ? (
        <Flex justify="center" style={{ padding: token.paddingLG }}>
          <span role="status" aria-label={t('state.loading')}>
            <Spin />
          </span>
        </Flex>
      ) : links.isError ? (
        <Alert type="error" showIcon role="alert" title={errorMessage(links.error, t)} />
      ) : tree.length === 0 ? (
        <Empty description={t('topology.empty')} />
      ) : (
        <Tree
          showLine
          defaultExpandAll
          selectable={false}
          treeData={tree.map((n) => toData(n, ''))}
          aria-label={title}
        />
      )}
    </Card>
  );
}
