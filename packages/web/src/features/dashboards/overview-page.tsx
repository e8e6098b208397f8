import type { Bucket } from '@lampyr/contract';
import { Card, Flex, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { type AggregateRow, averagesPerBucket, seriesBy } from '../../charts/aggregate-series.ts';
import type { Range } from '../../charts/chart-range.ts';
import { ChartResult } from '../../charts/chart-result.tsx';
import { RangeControls, ShowChartButton, useChartRange } from '../../charts/range-controls.tsx';
import { type ChannelKind, useChannelKind } from '../../data/channel-choice.ts';
import { useReadingsAggregate } from '../../data/readings-aggregate.ts';
import { recordLabel } from '../../data/reference-data.ts';
import { useFormat } from '../../lib/format.ts';
import { listRecords, type Row } from '../../lib/resource-api.ts';
import { ScrollTable } from '../../resources/scroll-table.tsx';
import { ChannelKindSelect } from './channel-kind-select.tsx';

interface OverviewQuery {
  kind: ChannelKind;
  range: Range;
  bucket: Bucket;
}

interface RegionAverages {
  region: Row;
  rows: AggregateRow[];
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Every region's averages of one channel: per bucket for the chart, over the range for the table. */
async function regionAverages(q: OverviewQuery, signal: AbortSignal): Promise<RegionAverages[]> {
  const page = <T extends Row>(prefix: string, filter: Record<string, number> | null, columns: string[]) =>
    listRecords<T>(
      prefix,
      {
        filter,
        detailFilter: [],
        selectedColumns: Object.fromEntries(columns.map((c) => [c, true])),
        pageable: { page: 1, size: 1000, sort: [] },
      },
      { signal },
    );
  const [regions, devices] = await Promise.all([page('regions', null, ['name']), page('devices', null, ['regionId'])]);
  return Promise.all(
    regions.content.map(async (region) => {
      const ids = devices.content.filter((d) => d.regionId === region.id).map((d) => d.id);
      if (ids.length === 0) return { region, rows: [] };
      const rows = await averagesPerBucket(
        [
          { field: 'deviceChannelTemplateId', operator: 'in', value: q.kind.templateIds },
          { field: 'deviceId', operator: 'in', value: ids },
        ],
        q.range,
        q.bucket,
        [],
        signal,
      );
      return { region, rows };
    }),
  );
}

/** The menu's Average Overview: one channel's average per region, over time and over the range. */
export default function AverageOverviewPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { kinds, kind, setCode } = useChannelKind();
  const chartRange = useChartRange('1h');
  const { range, bucket } = chartRange;
  const [query, setQuery] = useState<OverviewQuery>();

  const data = useReadingsAggregate('overview', query, regionAverages);
  const unit = query?.kind.unit || undefined;
  const format = useFormat();
  const series = (data.data ?? [])
    .filter((r) => r.rows.length > 0)
    .flatMap((r) => seriesBy(r.rows, undefined, () => ({ name: recordLabel('regions', r.region), unit })));
  const summary = (data.data ?? []).map(({ region, rows }) => {
    const count = rows.reduce((n, r) => n + Number(r.count ?? 0), 0);
    const weighted = rows.reduce((n, r) => n + Number(r.avg ?? 0) * Number(r.count ?? 0), 0);
    const mins = rows.map((r) => r.min).filter((v): v is number => typeof v === 'number');
    const maxes = rows.map((r) => r.max).filter((v): v is number => typeof v === 'number');
    return {
      key: region.id,
      region: recordLabel('regions', region),
      count,
      avg: count ? round(weighted / count) : undefined,
      min: mins.length ? round(Math.min(...mins)) : undefined,
      max: maxes.length ? round(Math.max(...maxes)) : undefined,
    };
  });
  const withUnit = (v: number | undefined) => (v === undefined ? '–' : format.unit(v, unit));

  return (
    <Card>
      <ScreenTitle title={t('menu.dashboards.overview')} spaced />
      <Flex wrap gap={token.margin} align="flex-start" style={{ marginBottom: token.margin }}>
        <ChannelKindSelect kinds={kinds} value={kind?.code} onChange={setCode} />
        <RangeControls value={chartRange} />
        <ShowChartButton
          disabled={!kind || Boolean(chartRange.error)}
          onClick={() => kind && setQuery({ kind, range, bucket })}
        />
      </Flex>
      <ChartResult range={query?.range} data={data} series={series}>
        <ScrollTable
          size="small"
          pagination={false}
          dataSource={summary}
          columns={[
            { key: 'region', dataIndex: 'region', title: t('chart.region') },
            { key: 'avg', dataIndex: 'avg', title: t('chart.measures.avg'), render: withUnit },
            { key: 'min', dataIndex: 'min', title: t('chart.measures.min'), render: withUnit },
            { key: 'max', dataIndex: 'max', title: t('chart.measures.max'), render: withUnit },
            { key: 'count', dataIndex: 'count', title: t('chart.readings') },
          ]}
        />
      </ChartResult>
    </Card>
  );
}
