import type { Bucket, Condition } from '@lampyr/contract';
import { Card, Flex, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { averagesPerBucket, seriesBy } from '../../charts/aggregate-series.ts';
import type { Range } from '../../charts/chart-range.ts';
import { ChartResult } from '../../charts/chart-result.tsx';
import { RangeControls, ShowChartButton, useChartRange } from '../../charts/range-controls.tsx';
import { type ChannelKind, useChannelKind, useRegionDevices } from '../../data/channel-choice.ts';
import { useReadingsAggregate } from '../../data/readings-aggregate.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { ChannelKindSelect } from './channel-kind-select.tsx';

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
  const { kinds, kind, setCode } = useChannelKind();
  const [regionId, setRegionId] = useState<number>();
  const chartRange = useChartRange('1h');
  const { range, bucket } = chartRange;
  const [query, setQuery] = useState<ChartQuery>();
  const region = useRegionDevices(regionId);

  const data = useReadingsAggregate('channel-average', query, (q: ChartQuery, signal) => {
    if (q.deviceIds?.length === 0) return Promise.resolve([]);
    const filters: Condition[] = [{ field: 'deviceChannelTemplateId', operator: 'in', value: q.kind.templateIds }];
    if (q.deviceIds) filters.push({ field: 'deviceId', operator: 'in', value: q.deviceIds });
    return averagesPerBucket(filters, q.range, q.bucket, [], signal);
  });
  const rows = data.data ?? [];
  const unit = query?.kind.unit || undefined;
  const series = (['avg', 'min', 'max'] as const).flatMap((measure) =>
    seriesBy(rows, undefined, () => ({ name: t(`chart.measures.${measure}`), unit }), measure),
  );
  const regionReady = regionId === undefined || region.data !== undefined;

  return (
    <Card>
      <ScreenTitle title={t('menu.dashboards.charts')} spaced />
      <Flex wrap gap={token.margin} align="flex-start" style={{ marginBottom: token.margin }}>
        <ChannelKindSelect kinds={kinds} value={kind?.code} onChange={setCode} />
        <div style={{ width: 220 }}>
          <ReferenceSelect
            prefix="regions"
            aria-label={t('chart.region')}
            placeholder={t('chart.allRegions')}
            value={regionId ?? null}
            onChange={(v) => setRegionId(typeof v === 'number' ? v : undefined)}
          />
        </div>
        <RangeControls value={chartRange} />
        <ShowChartButton
          disabled={!kind || Boolean(chartRange.error) || !regionReady}
          onClick={() => kind && setQuery({ kind, deviceIds: region.data, range, bucket })}
        />
      </Flex>
      <ChartResult range={query?.range} data={data} series={series} />
    </Card>
  );
}
