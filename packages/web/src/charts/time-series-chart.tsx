import { theme } from 'antd';
import { LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useMemo } from 'react';
import { useFormat } from '../lib/format.ts';
import { useEChart } from './use-echart.ts';

echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

export interface TimeSeries {
  name: string;
  unit?: string;
  /** [ISO time, value] pairs in time order. */
  points: [string, number | null][];
}

/**
 * Lines over time with ECharts, coloured from the antd theme's tokens so light and dark both read;
 * one value axis per unit. Loaded only by the chart screens (echarts stays out of /login).
 */
export function TimeSeriesChart({
  series,
  label,
  span,
  height = 380,
}: {
  series: TimeSeries[];
  label: string;
  /** The range asked for: the time axis shows all of it, however few readings fall in it. */
  span?: [string, string];
  height?: number;
}) {
  const { token } = theme.useToken();
  const format = useFormat();
  const option = useMemo(() => {
    const units = [...new Set(series.map((s) => s.unit ?? ''))];
    const axisLine = { lineStyle: { color: token.colorBorder } };
    return {
      color: [
        token.colorPrimary,
        token.colorInfo,
        token.colorWarning,
        token.colorError,
        token.purple,
        token.cyan,
        token.magenta,
        token.gold,
      ],
      textStyle: { color: token.colorText, fontFamily: token.fontFamily },
      tooltip: {
        trigger: 'axis',
        backgroundColor: token.colorBgElevated,
        borderColor: token.colorBorder,
        textStyle: { color: token.colorText },
        valueFormatter: (value: unknown) => (typeof value === 'number' ? format.number(value) : '—'),
      },
      legend: { top: 0, textStyle: { color: token.colorText } },
      grid: {
        left: 56 + Math.floor((units.length - 1) / 2) * 56,
        right: 56 + Math.floor(units.length / 2) * 56,
        top: 40,
        bottom: 72,
      },
      xAxis: {
        type: 'time',
        min: span?.[0],
        max: span?.[1],
        axisLine,
        axisLabel: { color: token.colorTextSecondary },
      },
      yAxis: units.map((unit, i) => ({
        type: 'value',
        name: unit,
        position: i % 2 ? 'right' : 'left',
        offset: Math.floor(i / 2) * 56,
        axisLine: { ...axisLine, show: true },
        axisLabel: { color: token.colorTextSecondary, formatter: (value: number) => format.number(value) },
        nameTextStyle: { color: token.colorTextSecondary },
        splitLine: { show: i === 0, lineStyle: { color: token.colorSplit } },
      })),
      dataZoom: [
        { type: 'inside' },
        {
          type: 'slider',
          bottom: 16,
          borderColor: token.colorBorder,
          textStyle: { color: token.colorTextSecondary },
        },
      ],
      series: series.map((s) => ({
        type: 'line',
        name: s.unit ? `${s.name} (${s.unit})` : s.name,
        yAxisIndex: units.indexOf(s.unit ?? ''),
        showSymbol: s.points.length < 60,
        connectNulls: false,
        data: s.points,
      })),
    };
  }, [series, span, token, format]);

  const element = useEChart(option);
  return <div ref={element} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
