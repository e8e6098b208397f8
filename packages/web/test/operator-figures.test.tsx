import type { DashboardSummary } from '@lampyr/contract';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { LampStateTag } from '../src/features/assets-devices/lamp-state-tag.tsx';
import { OperatorFigures } from '../src/features/dashboards/operator-figures.tsx';
import { type ConsoleI18n, consoleI18n } from './support/console-screen.tsx';

let i18n: ConsoleI18n;

beforeAll(async () => {
  i18n = await consoleI18n();
});

const summary: DashboardSummary = {
  inventory: [],
  deviceCount: 210,
  online: 200,
  offline: 10,
  neverSeen: 0,
  alarms: null,
  lamps: { on: 1200, dimmed: 40, off: 3, fault: 7, offline: 10, unknown: 0 },
  powerW: 1234,
  energyToday: { day: '2026-11-23', energyKwh: 1641.02, baselineKwh: 2735 },
  openFaults: null,
  gateways: 3,
  gatewaysDown: 1,
};

const show = (lng: string, data = summary) => {
  void i18n.changeLanguage(lng);
  return render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <OperatorFigures data={data} />
      </MemoryRouter>
    </I18nextProvider>,
  );
};

describe("the dashboard's operator figures", () => {
  it('formats counts, power, energy and the share saved by the language (Turkish)', () => {
    show('tr');
    expect(screen.getByText('1.200')).toBeTruthy();
    expect(screen.getByText('1.234 W')).toBeTruthy();
    expect(screen.getByText('1.641 kWh')).toBeTruthy();
    expect(screen.getByText('Referans 2.735 kWh')).toBeTruthy();
    // (2735 − 1641.02) / 2735 = 40 %, written "%40" in Turkish.
    expect(screen.getByText('Şimdiye kadar referansın %40 altında')).toBeTruthy();
    expect(screen.getByText('Arızalı lambalar')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Arızalı lambaları haritada göster' }).getAttribute('href')).toBe(
      '/assets-devices/map?state=fault',
    );
    // Open faults are not in this role: a dash and why.
    expect(screen.getByText('Rolünüz bu değeri içermiyor.')).toBeTruthy();
  });

  it('says so when there is no energy figure yet, and offers no map link without failed lamps (English)', () => {
    show('en', {
      ...summary,
      lamps: { ...summary.lamps, fault: 0 },
      powerW: 15_300,
      energyToday: { day: '2026-11-23', energyKwh: null, baselineKwh: null },
      openFaults: 2,
    });
    expect(screen.getByText('15.3 kW')).toBeTruthy();
    expect(screen.getByText('No energy figure for today yet')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Show failed lamps on the map' })).toBeNull();
    expect(screen.getByText('of 3')).toBeTruthy();
  });
});

describe('the lamp state tag', () => {
  it('names the state with an icon, not only a colour', () => {
    void i18n.changeLanguage('en');
    render(
      <I18nextProvider i18n={i18n}>
        <LampStateTag state="fault" />
        <LampStateTag state={undefined} />
      </I18nextProvider>,
    );
    const fault = screen.getByText('Fault').closest('[data-lamp-state]');
    expect(fault?.getAttribute('data-lamp-state')).toBe('fault');
    expect(fault?.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe('warning');
    expect(screen.getByText('Not reported').closest('[data-lamp-state]')?.getAttribute('data-lamp-state')).toBe(
      'unknown',
    );
  });
});
