import * as echarts from 'echarts/core';
import { type RefObject, useEffect, useRef } from 'react';

/**
 * An ECharts instance on a div for the life of the component, resized with its element and given
 * `option` whenever it changes (the chart components build it with useMemo).
 */
export function useEChart(option: Parameters<echarts.ECharts['setOption']>[0]): RefObject<HTMLDivElement | null> {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts>(undefined);
  useEffect(() => {
    const el = element.current;
    if (!el) return;
    const instance = echarts.init(el, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = undefined;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);
  return element;
}
