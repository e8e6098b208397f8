import { fireEvent, render, screen } from '@testing-library/react';
import dayjs from 'dayjs';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { bucketFor, rangeTooLong } from '../src/charts/chart-range.ts';
import { RangeControls, useChartRange } from '../src/charts/range-controls.tsx';
import { type ConsoleI18n, consoleI18n } from './support/console-screen.tsx';

let i18n: ConsoleI18n;

beforeAll(async () => {
  i18n = await consoleI18n();
});

const start = dayjs('2026-03-01T00:00:00Z');

function Controls() {
  const chartRange = useChartRange('1h');
  return (
    <>
      <RangeControls value={chartRange} />
      <button type="button" onClick={() => chartRange.setRange([start, start.add(16, 'day')])}>
        widen
      </button>
    </>
  );
}

function Harness() {
  return (
    <I18nextProvider i18n={i18n}>
      <Controls />
    </I18nextProvider>
  );
}

describe('chart range', () => {
  it('allows 15 days and refuses a minute more', () => {
    expect(rangeTooLong([start, start.add(15, 'day')])).toBe(false);
    expect(rangeTooLong([start, start.add(15, 'day').add(1, 'minute')])).toBe(true);
  });

  it('picks a bucket that keeps a chart readable', () => {
    expect(bucketFor([start, start.add(3, 'hour')])).toBe('5m');
    expect(bucketFor([start, start.add(1, 'day')])).toBe('15m');
    expect(bucketFor([start, start.add(15, 'day')])).toBe('1h');
  });

  it("says SPEC's messages: the hint, then the refusal of a longer range, in English and Turkish", async () => {
    render(<Harness />);
    expect(screen.getByText('Select max 15 days')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByText('widen'));
    expect(screen.getByRole('alert').textContent).toBe('Please select max 15 days');
    await i18n.changeLanguage('tr');
    expect((await screen.findByRole('alert')).textContent).toBe('Lütfen en fazla 15 gün seçin');
    await i18n.changeLanguage('en');
  });
});
