import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Every number, share and measured value the console shows goes through here, formatted by the
 * person's language (Intl): Turkish "%99", "107,17 W", "1.641,02 kWh"; English "99%", "107.17 W",
 * "1,641.02 kWh". Values a device reports keep up to two decimals unless told otherwise.
 */
export interface Formatter {
  locale: string;
  /** A plain number (grouping, up to `digits` decimals). */
  number(value: number, digits?: number): string;
  /** A share given in per cent (0–100): "%40" in Turkish, "40%" in English. */
  percent(value: number, digits?: number): string;
  /** A measured value with its unit ("107,17 W"); a "%" unit reads as a share. */
  unit(value: number, unit: string | null | undefined, digits?: number): string;
}

const cache = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    cache.set(key, format);
  }
  return format;
}

export function formatter(locale: string): Formatter {
  const self: Formatter = {
    locale,
    number: (value, digits = 2) => numberFormat(locale, { maximumFractionDigits: digits }).format(value),
    percent: (value, digits = 1) =>
      numberFormat(locale, { style: 'percent', maximumFractionDigits: digits }).format(value / 100),
    unit: (value, unit, digits = 2) => {
      if (!unit) return self.number(value, digits);
      if (unit.trim() === '%') return self.percent(value, digits);
      return `${self.number(value, digits)} ${unit}`;
    },
  };
  return self;
}

/** The formatter of the console's current language. */
export function useFormat(): Formatter {
  const { i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  return useMemo(() => formatter(locale), [locale]);
}
