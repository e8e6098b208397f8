import { theme } from 'antd';
import { BarChart as EBarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useMemo } from 'react';
import { useEChart } from './use-echart.ts';

echarts.use([EBarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export interface CategorySeries {
  name: string;
  /** Drawn as bars, or as a line over them (a baseline). */
  type: 'bar' | 'line';
  values: (number | null)[];
}

/**
 * Values per category (days, months) as bars with lines over them, coloured from the antd theme;
 * `format` writes the axis and tooltip numbers in the user's locale.
 */
export function BarChart({
  categories,
  series,
  label,
  unit,
  format,
  height = 320,
  colors,
}: {
  categories: string[];
  series: CategorySeries[];
  label: string;
  unit: string;
  format: (value: number) => string;
  height?: number;
  /** Series colours in order (alarm levels), instead of the theme's. */
  colors?: string[];
}) {
  const { token } = theme.useToken();
  const option = useMemo(() => {
    const axisLine = { lineStyle: { color: token.colorBorder } };
    return {
      color: colors ?? [token.colorPrimary, token.colorWarning, token.colorSuccess],
      textStyle: { color: token.colorText, fontFamily: token.fontFamily },
      tooltip: {
        trigger: 'axis',
        backgroundColor: token.colorBgElevated,
        borderColor: token.colorBorder,
        textStyle: { color: token.colorText },
        valueFormatter: (value: unknown) => (typeof value === 'number' ? `${format(value)} ${unit}` : '—'),
      },
      legend: { top: 0, textStyle: { color: token.colorText } },
      grid: { left: 64, right: 24, top: 40, bottom: 32 },
      xAxis: { type: 'category', data: categories, axisLine, axisLabel: { color: token.colorTextSecondary } },
      yAxis: {
        type: 'value',
        name: unit,
        axisLine: { ...axisLine, show: true },
        axisLabel: { color: token.colorTextSecondary, formatter: format },
        nameTextStyle: { color: token.colorTextSecondary },
        splitLine: { lineStyle: { color: token.colorSplit } },
      },
      series: series.map((s) => ({
        type: s.type,
        name: s.name,
        data: s.values,
        ...(s.type === 'line' ? { showSymbol: categories.length < 40, lineStyle: { type: 'dashed' } } : {}),
      })),
    };
  }, [categories, series, unit, format, token, colors]);

  const element = useEChart(option);
  return <div ref={element} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
