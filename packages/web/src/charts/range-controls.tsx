import { LineChartOutlined } from '@ant-design/icons';
import type { Bucket } from '@lampyr/contract';
import { Button, DatePicker, Flex, Select, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bucketFor, CHART_BUCKETS, type Range, rangeInvalid, rangeTooLong } from './chart-range.ts';

/** The last 24 hours, the default range of every chart. */
export function lastDay(): Range {
  const to = dayjs().add(1, 'minute').startOf('minute');
  return [to.subtract(1, 'day'), to];
}

/** Says what is wrong with a range, in SPEC §5's words; nothing when it can be charted. */
export function useRangeError(range: Range): string | undefined {
  const { t } = useTranslation();
  if (rangeInvalid(range)) return t('chart.invalidRange');
  if (rangeTooLong(range)) return t('chart.maxDaysPlease');
  return undefined;
}

/** A chart's range and bucket, and what is wrong with the range. */
export interface ChartRange {
  range: Range;
  bucket: Bucket;
  error: string | undefined;
  /** A new range also picks its bucket, which the person may then change. */
  setRange: (range: Range) => void;
  setBucket: (bucket: Bucket) => void;
}

/** The last day to start with, averaged over `initialBucket` (by default the one the range picks). */
export function useChartRange(initialBucket?: Bucket): ChartRange {
  const [range, setRangeOnly] = useState<Range>(lastDay);
  const [bucket, setBucket] = useState<Bucket>(() => initialBucket ?? bucketFor(lastDay()));
  const error = useRangeError(range);
  const setRange = (next: Range) => {
    setRangeOnly(next);
    setBucket(bucketFor(next));
  };
  return { range, bucket, error, setRange, setBucket };
}

/** The chart screens' Show button. */
export function ShowChartButton({ disabled, onClick }: { disabled: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button type="primary" icon={<LineChartOutlined />} disabled={disabled} onClick={onClick}>
      {t('chart.show')}
    </Button>
  );
}

/** A time range of at most 15 days and the bucket the values are averaged over. */
export function RangeControls({ value }: { value: ChartRange }) {
  const { range, bucket, error, setRange: onRange, setBucket: onBucket } = value;
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const now = () => dayjs().add(1, 'minute').startOf('minute');
  return (
    <Flex vertical gap={token.marginXXS}>
      <Flex wrap gap={token.marginSM} align="center">
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="L HH:mm"
          value={range}
          allowClear={false}
          status={error ? 'error' : undefined}
          aria-label={t('chart.range')}
          presets={[
            { label: t('chart.presets.day'), value: () => [now().subtract(1, 'day'), now()] },
            { label: t('chart.presets.week'), value: () => [now().subtract(7, 'day'), now()] },
            { label: t('chart.presets.max'), value: () => [now().subtract(15, 'day'), now()] },
          ]}
          onChange={(value) => {
            if (value?.[0] && value[1]) onRange([value[0], value[1]]);
          }}
        />
        <Select<Bucket>
          value={bucket}
          onChange={onBucket}
          aria-label={t('chart.bucket')}
          style={{ width: 160 }}
          options={CHART_BUCKETS.map((b) => ({ value: b, label: t(`chart.buckets.${b}`) }))}
        />
      </Flex>
      {error ? (
        <Typography.Text type="danger" role="alert" data-testid="range-error">
          {error}
        </Typography.Text>
      ) : (
        <Typography.Text type="secondary">{t('chart.maxDays')}</Typography.Text>
      )}
    </Flex>
  );
}
