import * as echarts from 'echarts/core';
import { type RefObject, useEffect, useRef } from 'react';

/**
 * An ECharts instance on a div for the life of the component, resized with its element: the chart
 * components set their options on `chart.current`.
 */
export function useEChart(): {
  element: RefObject<HTMLDivElement | null>;
  chart: RefObject<echarts.ECharts | undefined>;
} {
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
  return { element, chart };
}
