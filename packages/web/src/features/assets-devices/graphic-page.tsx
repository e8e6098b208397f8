import type { Bucket } from '@lampyr/contract';
import { Card, Empty, Flex, Select, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ScreenTitle } from '../../app/layout/screen-title.tsx';
import { averagesPerBucket, seriesBy } from '../../charts/aggregate-series.ts';
import type { Range } from '../../charts/chart-range.ts';
import { ChartResult } from '../../charts/chart-result.tsx';
import { RangeControls, useChartRange } from '../../charts/range-controls.tsx';
import { channelLabel, useChannelTemplates, useRecord } from '../../data/device-data.ts';
import { useReadingsAggregate } from '../../data/readings-aggregate.ts';
import { ReferenceSelect } from '../../resources/reference-select.tsx';

interface ChartQuery {
  deviceId: number;
  channels: number[];
  range: Range;
  bucket: Bucket;
}

/**
 * assets-devices/graphic (and the reports' chart): one or more channels of a device over a range
 * of at most 15 days, averaged per time bucket by the aggregate API.
 */
export default function GraphicPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [search, setSearch] = useSearchParams();
  const deviceId = Number(search.get('deviceId')) || undefined;
  const device = useRecord('devices', deviceId);
  const modelId = device.data?.deviceTypeModelId as number | undefined;
  const templates = useChannelTemplates(modelId === undefined ? [] : [modelId]);
  const [picked, setPicked] = useState<number[]>();
  const chartRange = useChartRange();
  const { range, bucket } = chartRange;

  const readable = (templates.data?.content ?? []).filter((tpl) => tpl.deviceTypeModelId === modelId);
  // Until the person picks, the first two channels of the model.
  const channels = picked ?? readable.slice(0, 2).map((tpl) => tpl.id);
  const byId = new Map(readable.map((tpl) => [tpl.id, tpl]));
  // The chart follows the choices: as soon as a device and its channels are chosen, it shows.
  const canShow = deviceId !== undefined && channels.length > 0 && !chartRange.error;
  const query: ChartQuery | undefined = canShow ? { deviceId, channels, range, bucket } : undefined;

  const data = useReadingsAggregate('graphic', query, (q: ChartQuery, signal) =>
    averagesPerBucket(
      [
        { field: 'deviceId', operator: 'eq', value: q.deviceId },
        { field: 'deviceChannelTemplateId', operator: 'in', value: q.channels },
      ],
      q.range,
      q.bucket,
      ['deviceChannelTemplateId'],
      signal,
    ),
  );
  const series = seriesBy(data.data ?? [], 'deviceChannelTemplateId', (id) => {
    const tpl = byId.get(id as number);
    return { name: channelLabel(tpl, `#${String(id)}`), unit: tpl?.unit || undefined };
  });

  return (
    <Card>
      <ScreenTitle title={t('menu.assets-devices.graphic')} spaced />
      <Flex wrap gap={token.margin} align="flex-start" style={{ marginBottom: token.margin }}>
        <div style={{ width: 260 }}>
          <ReferenceSelect
            prefix="devices"
            aria-label={t('device.choose')}
            placeholder={t('device.choose')}
            value={deviceId ?? null}
            onChange={(next) => {
              setPicked(undefined);
              setSearch(typeof next === 'number' ? { deviceId: String(next) } : {});
            }}
          />
        </div>
        <Select<number[]>
          mode="multiple"
          aria-label={t('chart.channels')}
          placeholder={t('chart.channels')}
          style={{ minWidth: 280 }}
          value={channels}
          onChange={setPicked}
          loading={templates.isFetching}
          disabled={deviceId === undefined}
          options={readable.map((tpl) => ({
            value: tpl.id,
            label: tpl.unit
              ? `${channelLabel(tpl, tpl.channelCode)} (${tpl.unit})`
              : channelLabel(tpl, tpl.channelCode),
          }))}
        />
        <RangeControls value={chartRange} />
      </Flex>
      {deviceId === undefined ? (
        <Empty description={t('device.chooseHint')} />
      ) : (
        <ChartResult range={query?.range} data={data} series={series} />
      )}
    </Card>
  );
}
