/**
 * NOAA's solar calculator, written again from its published equations (the "General Solar Position"
 * spreadsheet NOAA_Solar_Calculations_day.xls and the JavaScript of gml.noaa.gov/grad/solcalc): an
 * independent reference for the tests, sharing no code with suncalc. Angles in degrees.
 */

const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

function sunAt(jd: number) {
  const t = (jd - 2451545) / 36525; // Julian century
  const l0 = (((280.46646 + t * (36000.76983 + t * 0.0003032)) % 360) + 360) % 360; // geom mean long sun
  const m = 357.52911 + t * (35999.05029 - 0.0001537 * t); // geom mean anom sun
  const e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t); // eccent earth orbit
  const c =
    Math.sin(rad(m)) * (1.914602 - t * (0.004817 + 0.000014 * t)) +
    Math.sin(rad(2 * m)) * (0.019993 - 0.000101 * t) +
    Math.sin(rad(3 * m)) * 0.000289; // sun eq of ctr
  const trueLong = l0 + c;
  const omega = 125.04 - 1934.136 * t;
  const appLong = trueLong - 0.00569 - 0.00478 * Math.sin(rad(omega));
  const meanObliq = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60;
  const obliq = meanObliq + 0.00256 * Math.cos(rad(omega));
  const declination = deg(Math.asin(Math.sin(rad(obliq)) * Math.sin(rad(appLong))));
  const y = Math.tan(rad(obliq / 2)) ** 2;
  const eqTime =
    4 *
    deg(
      y * Math.sin(2 * rad(l0)) -
        2 * e * Math.sin(rad(m)) +
        4 * e * y * Math.sin(rad(m)) * Math.cos(2 * rad(l0)) -
        0.5 * y * y * Math.sin(4 * rad(l0)) -
        1.25 * e * e * Math.sin(2 * rad(m)),
    ); // minutes
  return { declination, eqTime };
}

/** cos of the hour angle at which the sun's centre reaches `zenith`; beyond ±1 it never does. */
function hourAngleCos(latitude: number, declination: number, zenith: number): number {
  return (
    Math.cos(rad(zenith)) / (Math.cos(rad(latitude)) * Math.cos(rad(declination))) -
    Math.tan(rad(latitude)) * Math.tan(rad(declination))
  );
}

export type NoaaEvent = { at: Date } | { never: 'up' | 'down' };

/**
 * The UTC instant of sunrise (rise) or sunset around the solar noon of UTC date `date` at a place
 * (longitude east-positive), NOAA's way: a first estimate from the sun at 0h UTC, refined once with
 * the sun at that estimate. `zenith` 90.833 for sunrise/sunset, 96 civil, 102 nautical.
 */
export function noaaEvent(date: string, latitude: number, longitude: number, rise: boolean, zenith = 90.833) {
  const day0 = Date.parse(`${date}T00:00:00Z`);
  const jd0 = day0 / 86400000 + 2440587.5;
  const minutesAt = (jd: number): number | 'up' | 'down' => {
    const { declination, eqTime } = sunAt(jd);
    const cosH = hourAngleCos(latitude, declination, zenith);
    if (cosH > 1) return 'down';
    if (cosH < -1) return 'up';
    const h = deg(Math.acos(cosH)) * (rise ? 1 : -1);
    return 720 - 4 * (longitude + h) - eqTime;
  };
  let minutes = minutesAt(jd0);
  for (let i = 0; i < 2 && typeof minutes === 'number'; i++) minutes = minutesAt(jd0 + minutes / 1440);
  if (typeof minutes !== 'number') return { never: minutes } as NoaaEvent;
  return { at: new Date(day0 + minutes * 60000) } as NoaaEvent;
}
