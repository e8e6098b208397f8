import { Alert, Empty, Flex, Spin, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../lib/error-message.ts';
import { type Range, spanOf } from './chart-range.ts';
import { type TimeSeries, TimeSeriesChart } from './time-series-chart.tsx';

/**
 * What a chart screen shows below its controls: a hint until asked, then loading, the error, no
 * data, or the chart — with `children` (a summary table) under any answer.
 */
export function ChartResult({
  range,
  data,
  series,
  children,
}: {
  /** The range asked for; none until the user presses Show. */
  range: Range | undefined;
  data: { isPending: boolean; isError: boolean; error: unknown };
  series: TimeSeries[];
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (!range) return <Empty description={t('chart.pressShow')} />;
  if (data.isPending) {
    return (
      <Flex justify="center" style={{ padding: token.paddingLG }}>
        <span role="status" aria-label={t('state.loading')}>
          <Spin />
        </span>
      </Flex>
    );
  }
  if (data.isError) return <Alert type="error" showIcon role="alert" title={errorMessage(data.error, t)} />;
  const chart =
    series.length === 0 ? (
      <Empty description={t('chart.noData')} />
    ) : (
      <TimeSeriesChart series={series} span={spanOf(range)} label={t('chart.ariaLabel', { count: series.length })} />
    );
  if (!children) return chart;
  return (
    <Flex vertical gap={token.margin}>
      {chart}
      {children}
    </Flex>
  );
}
