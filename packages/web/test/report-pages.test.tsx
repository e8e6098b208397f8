import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import MaintenanceKpiPage from '../src/features/maintenance-fault/kpi-page.tsx';
import AlarmReportPage from '../src/features/reports-analytics/alarm-report-page.tsx';
import AssetReportPage from '../src/features/reports-analytics/asset-report-page.tsx';
import SavingsPage from '../src/features/reports-analytics/savings-page.tsx';
import { setRuntimeConfig } from '../src/lib/runtime-config.ts';
import { type ConsoleI18n, consoleI18n, renderScreen } from './support/console-screen.tsx';

/**
 * The four report screens share their state (period, grouping, filters, page), filters, figures and
 * table: each asks the server for its report over the last 30 days, shows its headline figures, and
 * a filter chosen asks again from the first page.
 */
let i18n: ConsoleI18n;

beforeAll(async () => {
  i18n = await consoleI18n();
});

afterEach(() => vi.unstubAllGlobals());

// Empty periods: the screens show their figures and say there is nothing to chart.
const answers: Record<string, unknown> = {
  alarms: {
    rows: [],
    totalRows: 0,
    totals: { raised: 0, active: 0, acknowledged: 0, cleared: 0, mttaMinutes: null, mttcMinutes: 12.5 },
    series: [],
    bucket: 'day',
  },
  assets: {
    rows: [],
    totalRows: 0,
    totals: {
      devices: 0,
      online: 0,
      onlinePct: null,
      faults: 0,
      alarms: 0,
      batteryAvg: null,
      lowBattery: 0,
      externalPower: 0,
      linkMarginAvg: 1234.25,
      ageYears: null,
    },
  },
  energy: {
    rows: [],
    totalRows: 0,
    totals: {
      energyKwh: 1234.5,
      baselineKwh: null,
      savingsKwh: null,
      savingsPct: null,
      money: null,
      co2Kg: null,
      burnHours: 0,
      devices: 0,
      deviceDays: 0,
      meteredDeviceDays: 0,
    },
    series: [],
    bucket: 'day',
    currency: null,
  },
  maintenance: {
    rows: [],
    totalRows: 0,
    totals: { open: 3, reported: 1200, resolved: 0, closed: 0, reopened: 0, mttrHours: 0.5, mttcHours: null },
  },
};

function serve() {
  const asked: { kind: string; body: Record<string, unknown> }[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const kind = /reports\/(\w+)$/.exec(String(url))?.[1];
    if (kind) asked.push({ kind, body: JSON.parse(String(init?.body)) });
    const data = kind ? answers[kind] : { content: [], totalElements: 0 };
    return new Response(JSON.stringify({ success: true, data }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return asked;
}

function show(Page: ComponentType) {
  setRuntimeConfig({ queryUrl: '/query/api', commandUrl: '/command/api' });
  renderScreen(<Page />, i18n);
}

const day = (offset: number) => {
  const d = new Date(Date.now() + offset * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('report screens', () => {
  it.each([
    ['alarms', AlarmReportPage, 'level', ['12.5 min', 'No alarm was raised in this period']],
    ['assets', AssetReportPage, 'model', ['1,234.3']],
    ['energy', SavingsPage, 'region', ['1,234.5']],
    ['maintenance', MaintenanceKpiPage, 'faultType', ['1,200', '30']],
  ] as const)(
    '%s: asks for the last 30 days, grouped, first page, and shows the figures',
    async (kind, Page, groupBy, shown) => {
      const asked = serve();
      show(Page);
      for (const text of shown) expect(await screen.findByText(text, { exact: false })).toBeTruthy();
      expect(asked[0]).toEqual({ kind, body: { from: day(-29), to: day(0), groupBy, page: 0, size: 20 } });
    },
  );

  it('a level chosen on the alarm report asks again with it, from the first page', async () => {
    const asked = serve();
    show(AlarmReportPage);
    await waitFor(() => expect(asked).toHaveLength(1));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Level' }));
    fireEvent.click(await screen.findByTitle('High'));
    await waitFor(() => expect(asked).toHaveLength(2));
    expect(asked[1]?.body).toMatchObject({ level: 'high', page: 0 });
  });
});
