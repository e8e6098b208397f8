import { getPosition } from 'suncalc';
import { Controller, PROVISIONED_PLACE } from './controller.ts';
import type { Channel } from './demo-fleet.ts';

/**
 * The faults a light can develop, one per lamp fault rule of the server (engines/faults): a dead lamp
 * (`no_power`), the supply too high or too low, a relay stuck closed (`day_burning`: it says off and
 * burns), an end-of-life lamp going out and striking again (`cycling`), a failing driver's power factor
 * (`low_power_factor`) and a lamp drawing far from its rated power (`wrong_power`) — and weather, not a
 * breakdown, for the photocell: `dark_sky`, a storm darkening the sky to a few lux by day.
 */
export const FAULTS = [
  'no_power',
  'over_voltage',
  'under_voltage',
  'day_burning',
  'cycling',
  'low_power_factor',
  'wrong_power',
  'dark_sky',
] as const;
export type Fault = (typeof FAULTS)[number];
export const isFault = (value: unknown): value is Fault => (FAULTS as readonly unknown[]).includes(value);

/**
 * Ambient light (lx) for the sun's altitude in degrees (as suncalc 2 gives it): about 3 lx in the
 * night, through civil twilight (−6°) up to ~400 lx at sunrise, then daylight rising with the sun's
 * height (~100 klx at the zenith). Rough, but with the right shape for a photocell: dark at night,
 * bright by day.
 */
export function ambientLux(degrees: number): number {
  if (degrees <= -6) return 3;
  if (degrees <= 0) return 3 + ((degrees + 6) / 6) * 397;
  return 400 + 100_000 * Math.sin((degrees * Math.PI) / 180);
}

/** Rated power of the simulated luminaires (W at dim 100). */
const RATED_W = 120;

/**
 * One street-light controller: lamp state, dim level 0–100, and what its meter reads. A fault makes
 * it lie the way broken hardware does: `no_power` draws nothing while on, `over_voltage` sees 268 V;
 * `dark_sky` is weather, not a breakdown: a storm darkens the sky to a few lux by day.
 */
export class StreetLight {
  lampOn = true;
  dim = 100;
  energyKwh: number;
  faults = new Set<Fault>();
  /** A cycling lamp's phase: lit on one report, out on the next. */
  private struck = false;
  /** Periods left before a silent device speaks again (node loss). */
  silentFor = 0;
  fCnt: number;
  fCntDown = 0;
  /** Its schedule, override and configuration (docs/device-config.md). */
  controller = new Controller();
  /** When it last sent a config report (it sends one a day). */
  lastConfigReportAt: number;
  /**
   * Where its pole stands, whose sky its photocell sees; unset, its program's place, else where it
   * was provisioned. A deployed program does not move the pole.
   */
  pole?: { lat: number; lon: number };
  private lastAt: number;

  constructor(
    readonly id: string,
    readonly layout: readonly Channel[],
    private readonly random: () => number,
    now = Date.now(),
  ) {
    this.energyKwh = Math.round(100 + random() * 1900);
    this.fCnt = Math.floor(random() * 1000);
    this.lastAt = now;
    this.lastConfigReportAt = now;
  }

  /** The lamp as a level: 0 off, 1–100 on at that dim level. */
  get level(): number {
    return this.lampOn ? this.dim : 0;
  }

  /** Sets the lamp to a level (0 switches it off and keeps the dim level for the next switch-on). */
  setLevel(level: number): void {
    if (level <= 0) this.lampOn = false;
    else {
      this.lampOn = true;
      this.dim = Math.min(100, Math.round(level));
    }
  }

  /** Clear device data: the meter and counters start again. */
  clearData(): void {
    this.energyKwh = 0;
  }

  /** Applies a write by channel code; false when the device has no such writable channel. */
  apply(code: string, value: number): boolean {
    if (code === 'lamp') this.lampOn = value !== 0;
    else if (code === 'dim') {
      this.dim = Math.max(0, Math.min(100, Math.round(value)));
      if (this.dim > 0) this.lampOn = true;
    } else return false;
    return true;
  }

  /** The channel values now, in engineering units, by channel code. */
  read(now = Date.now()): Record<string, number> {
    const hours = (now - this.lastAt) / 3_600_000;
    this.lastAt = now;
    const noise = (spread: number) => (this.random() - 0.5) * 2 * spread;
    // A stuck relay burns whatever the controller thinks; a cycling lamp is out every other report.
    const switchedOn = this.lampOn || this.faults.has('day_burning');
    if (this.faults.has('cycling')) this.struck = !this.struck;
    const drawing = switchedOn && !this.faults.has('no_power') && !(this.faults.has('cycling') && !this.struck);
    const share = this.faults.has('wrong_power') ? 0.6 : 1;
    const power = drawing ? Math.max(1, (RATED_W * share * this.dim) / 100 + noise(3)) : 0;
    const voltage = this.faults.has('over_voltage')
      ? 268 + noise(2)
      : this.faults.has('under_voltage')
        ? 188 + noise(2)
        : 230 + noise(4);
    // A driver with a worn input capacitor draws far more current than its real power needs.
    const powerFactor = this.faults.has('low_power_factor') ? 0.5 : 0.97;
    this.energyKwh += (power * hours) / 1000;
    // The photocell sees the sky over its pole (else its program's place, else where it was provisioned).
    const place = this.pole ?? this.controller.program.location ?? PROVISIONED_PLACE;
    const sky = ambientLux(getPosition(new Date(now), place.lat, place.lon).altitude);
    const lux = this.faults.has('dark_sky') ? Math.min(sky, 3 + this.random() * 12) : sky * (1 + noise(0.1));
    const values: Record<string, number> = {
      lamp: this.lampOn ? 1 : 0,
      dim: this.dim,
      power: Math.round(power),
      voltage: Math.round(voltage * 10) / 10,
      current: Math.round((power / (voltage * powerFactor)) * 1000) / 1000,
      energy: Math.round(this.energyKwh * 100) / 100,
      lux: Math.max(0, Math.round(lux)),
      temperature: Math.round(18 + power / 8 + noise(2)),
    };
    return Object.fromEntries(this.layout.map(([code]) => [code, values[code] ?? 0]));
  }
}
