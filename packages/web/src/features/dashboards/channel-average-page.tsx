import { LineChartOutlined } from '@ant-design/icons';
import type { Bucket, Condition } from '@lampyr/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Select, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { averagesPerBucket, seriesBy } from '../../charts/aggregate-series.ts';
import { bucketFor, type Range } from '../../charts/chart-range.ts';
import { ChartResult } from '../../charts/chart-result.tsx';
import { lastDay, RangeControls, useRangeError } from '../../charts/range-controls.tsx';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { type ChannelKind, useChannelKinds, useRegionDevices } from './channel-choice.ts';

interface ChartQuery {
  kind: ChannelKind;
  deviceIds?: number[];
  range: Range;
  bucket: Bucket;
}

/**
 * The menu's Channel Average Chart: one channel (power, voltage, …) averaged over every device, or
 * over one region's, per time bucket, with the lowest and highest reading of each bucket.
 */
export default function ChannelAveragePage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { kinds } = useChannelKinds();
  const [code, setCode] = useState<string>();
  const [regionId, setRegionId] = useState<number>();
  const [range, setRange] = useState<Range>(lastDay);
  const [bucket, setBucket] = useState<Bucket>('1h');
  const [query, setQuery] = useState<ChartQuery>();
  const rangeError = useRangeError(range);
  const region = useRegionDevices(regionId);
  const kind = kinds.find((k) => k.code === (code ?? 'power')) ?? kinds[0];

  const data = useQuery({
    queryKey: ['query', 'channel-read-values', 'aggregate', 'channel-average', query],
    queryFn: ({ signal }) => {
      const q = query as ChartQuery;
      if (q.deviceIds?.length === 0) return Promise.resolve([]);
      const filters: Condition[] = [{ field: 'deviceChannelTemplateId', operator: 'in', value: q.kind.templateIds }];
      if (q.deviceIds) filters.push({ field: 'deviceId', operator: 'in', value: q.deviceIds });
      return averagesPerBucket(filters, q.range, q.bucket, [], signal);
    },
    enabled: query !== undefined,
  });
  const rows = data.data ?? [];
  const unit = query?.kind.unit || undefined;
  const series = (['avg', 'min', 'max'] as const).flatMap((measure) =>
    seriesBy(rows, undefined, () => ({ name: t(`chart.measures.${measure}`), unit }), measure),
  );
  const regionReady = regionId === undefined || region.data !== undefined;

  return (
    <Card>
      <h2 style={{ marginTop: 0, fontSize: token.fontSizeHeading4 }}>{t('menu.dashboards.charts')}</h2>
      <Flex wrap gap={token.margin} align="flex-start" style={{ marginBottom: token.margin }}>
        <Select<string>
          aria-label={t('chart.channel')}
          style={{ width: 220 }}
          value={kind?.code}
          onChange={setCode}
          options={kinds.map((k) => ({ value: k.code, label: k.unit ? `${k.label} (${k.unit})` : k.label }))}
        />
        <div style={{ width: 220 }}>
          <ReferenceSelect
            prefix="regions"
            aria-label={t('chart.region')}
            placeholder={t('chart.allRegions')}
            value={regionId ?? null}
            onChange={(v) => setRegionId(typeof v === 'number' ? v : undefined)}
          />
        </div>
        <RangeControls
          range={range}
          onRange={(next) => {
            setRange(next);
            setBucket(bucketFor(next));
          }}
          bucket={bucket}
          onBucket={setBucket}
        />
        <Button
          type="primary"
          icon={<LineChartOutlined />}
          disabled={!kind || Boolean(rangeError) || !regionReady}
          onClick={() => kind && setQuery({ kind, deviceIds: region.data, range, bucket })}
        >
          {t('chart.show')}
        </Button>
      </Flex>
      <ChartResult range={query?.range} data={data} series={series} />
    </Card>
  );
}
