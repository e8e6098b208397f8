import { Card, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';

/** device-topology/{id}: the topology tree of one type arrives with the topology entities. */
export default function TopologyPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  return (
    <Card>
      <Result
        status="info"
        title={<h2 style={{ margin: 0, fontSize: 'inherit' }}>{t('topology.title', { id })}</h2>}
        subTitle={<Typography.Paragraph>{t('topology.arrives')}</Typography.Paragraph>}
      />
    </Card>
  );
}
