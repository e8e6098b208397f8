import { describe, expect, it } from 'vitest';
import { formatter } from '../src/lib/format.ts';

describe('numbers by the person’s language', () => {
  it('writes Turkish shares, decimals and thousands the Turkish way', () => {
    const tr = formatter('tr');
    expect(tr.percent(99)).toBe('%99');
    expect(tr.unit(107.17, 'W')).toBe('107,17 W');
    expect(tr.unit(1641.02, 'kWh')).toBe('1.641,02 kWh');
    expect(tr.unit(40, '%')).toBe('%40');
    expect(tr.number(0.5)).toBe('0,5');
  });

  it('writes English the English way', () => {
    const en = formatter('en');
    expect(en.percent(99)).toBe('99%');
    expect(en.unit(107.17, 'W')).toBe('107.17 W');
    expect(en.unit(1641.02, 'kWh')).toBe('1,641.02 kWh');
    expect(en.unit(12, '')).toBe('12');
  });
});
