import type { Bucket } from '@lampyr/contract';
import { DatePicker, Flex, Select, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { CHART_BUCKETS, type Range, rangeInvalid, rangeTooLong } from './chart-range.ts';

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

/** A time range of at most 15 days and the bucket the values are averaged over. */
export function RangeControls({
  range,
  onRange,
  bucket,
  onBucket,
}: {
  range: Range;
  onRange: (range: Range) => void;
  bucket: Bucket;
  onBucket: (bucket: Bucket) => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const error = useRangeError(range);
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
