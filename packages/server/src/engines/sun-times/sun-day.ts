import { getTimes } from 'suncalc';
import { zonedInstant } from './zoned-time.ts';

/**
 * The sun over one place on one local calendar date. Times are UTC instants; `null` when the event
 * does not happen that day. `sunrise`/`sunset`: the upper limb at −0.833° (refraction and the sun's
 * radius); `dawn`/`dusk`: civil twilight, −6°; `nauticalDawn`/`nauticalDusk`: −12°.
 * `polarDay`: the sun never sets that day; `polarNight`: it never rises.
 */
export interface SunDay {
  date: string;
  sunrise: Date | null;
  sunset: Date | null;
  dawn: Date | null;
  dusk: Date | null;
  nauticalDawn: Date | null;
  nauticalDusk: Date | null;
  solarNoon: Date;
  nadir: Date;
  polarDay: boolean;
  polarNight: boolean;
}

export interface Place {
  latitude: number;
  longitude: number;
  timeZone: string;
}

/**
 * Sun times of a local date. suncalc (2.x: degrees in, UTC `Date`s out, `null` and
 * `alwaysUp`/`alwaysDown` at high latitudes) takes the solar day around the instant it is given;
 * local noon of the date names the right one in every zone, Kiribati's +14 h included.
 */
export function sunDay(place: Place, date: string): SunDay {
  const noon = zonedInstant(date, 12 * 60, place.timeZone);
  const t = getTimes(noon, place.latitude, place.longitude);
  return {
    date,
    sunrise: t.sunrise,
    sunset: t.sunset,
    dawn: t.dawn,
    dusk: t.dusk,
    nauticalDawn: t.nauticalDawn,
    nauticalDusk: t.nauticalDusk,
    solarNoon: t.solarNoon,
    nadir: t.nadir,
    polarDay: t.alwaysUp === true,
    polarNight: t.alwaysDown === true,
  };
}
