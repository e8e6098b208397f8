import { Controller } from './controller.ts';
import type { Channel } from './demo-fleet.ts';

export type Fault = 'no_power' | 'over_voltage';

/** Rated power of the simulated luminaires (W at dim 100). */
const RATED_W = 120;

/**
 * One street-light controller: lamp state, dim level 0–100, and what its meter reads. A fault makes
 * it lie the way broken hardware does: `no_power` draws nothing while on, `over_voltage` sees 262 V.
 */
export class StreetLight {
  lampOn = true;
  dim = 100;
  energyKwh: number;
  faults = new Set<Fault>();
  /** Periods left before a silent device speaks again (node loss). */
  silentFor = 0;
  fCnt: number;
  fCntDown = 0;
  /** Its schedule, override and configuration (docs/device-config.md). */
  controller = new Controller();
  /** When it last sent a config report (it sends one a day). */
  lastConfigReportAt: number;
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
    const drawing = this.lampOn && !this.faults.has('no_power');
    const power = drawing ? Math.max(1, (RATED_W * this.dim) / 100 + noise(3)) : 0;
    const voltage = this.faults.has('over_voltage') ? 262 + noise(2) : 230 + noise(4);
    this.energyKwh += (power * hours) / 1000;
    const hourOfDay = new Date(now).getUTCHours() + 3; // Istanbul
    const night = hourOfDay % 24 >= 19 || hourOfDay % 24 < 6;
    const values: Record<string, number> = {
      lamp: this.lampOn ? 1 : 0,
      dim: this.dim,
      power: Math.round(power),
      voltage: Math.round(voltage * 10) / 10,
      current: Math.round((power / voltage) * 1000) / 1000,
      energy: Math.round(this.energyKwh * 100) / 100,
      lux: Math.max(0, Math.round((night ? 3 : 9000) + noise(night ? 2 : 1500))),
      temperature: Math.round(18 + power / 8 + noise(2)),
    };
    return Object.fromEntries(this.layout.map(([code]) => [code, values[code] ?? 0]));
  }
}
