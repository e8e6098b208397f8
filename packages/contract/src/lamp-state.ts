import { z } from 'zod';

/**
 * What a light is doing now, derived by the server (data/lamp-state.ts) from its latest lamp, dim
 * and power readings, its connection and its open faults, in this order of precedence:
 * - `fault`: an open fault (an active alarm other than node or gateway loss, an open fault report,
 *   installation status faulty), or its readings show a failed lamp (switched on at a level but
 *   drawing under 20 % of the rated power at that level, or under 6 W with no rating);
 * - `offline`: its connection is lost;
 * - `off`: lamp reported off, or a dim level of 0;
 * - `dimmed`: on below 100 %;
 * - `on`: on at full level (or burning, for a device that reports power only);
 * - `unknown`: nothing reported yet (never seen, or not a light).
 */
export const LAMP_STATES = ['on', 'dimmed', 'off', 'fault', 'offline', 'unknown'] as const;
export type LampState = (typeof LAMP_STATES)[number];

/** Below this share of the expected power, a lamp switched on counts as failed (issue 13's lamp-failure rule). */
export const LAMP_FAILURE_SHARE = 0.2;
/** Power above this many watts counts as burning (a controller's own draw stays below it). */
export const LAMP_BURNING_WATTS = 6;

/** One device's lamp state with the latest readings it comes from (`GET {QUERY_URL}/lamp-states`). */
export interface DeviceLampState {
  deviceId: number;
  state: LampState;
  /** The latest lamp channel reading (1 on, 0 off), dim level (%) and power (W); null when not reported. */
  lamp: number | null;
  dim: number | null;
  power: number | null;
  street: string | null;
}

/** `GET {QUERY_URL}/streets`: the distinct streets of the account's devices, with how many each has. */
export interface StreetCount {
  street: string;
  devices: number;
}

/**
 * `POST {COMMAND_URL}/task-groups/{id}/members/add`: fills a task group's member list from a
 * street (optionally within a region), a region, a rectangle drawn on the map, or listed devices.
 */
export const memberSourceSchema = z.union([
  z.strictObject({
    street: z.string().trim().min(1).max(200),
    regionId: z.number().int().positive().optional(),
  }),
  z.strictObject({ regionId: z.number().int().positive() }),
  z.strictObject({
    bounds: z
      .strictObject({
        south: z.number().min(-90).max(90),
        west: z.number().min(-180).max(180),
        north: z.number().min(-90).max(90),
        east: z.number().min(-180).max(180),
      })
      .refine((b) => b.south <= b.north && b.west <= b.east, 'south must not exceed north, nor west east'),
  }),
  z.strictObject({ deviceIds: z.array(z.number().int().positive()).min(1).max(5000) }),
]);
export type MemberSource = z.infer<typeof memberSourceSchema>;

/** What adding members answers: how many devices matched, and how many of them were new members. */
export interface MembersAdded {
  matched: number;
  added: number;
}

/** A device the map draws one by one (`GET {QUERY_URL}/device-map`): where it is, its lamp state and connection. */
export interface MapDevice {
  id: number;
  name: string;
  street: string | null;
  latitude: number;
  longitude: number;
  state: LampState;
  /** Connection: online, offline, or never seen. */
  status: 'online' | 'offline' | 'never';
  /** When the connection status last changed; null when never seen. */
  dateTime: string | null;
  dim: number | null;
  power: number | null;
}

/** Devices the map draws as one marker: their mean position, how many, and how many in each lamp state. */
export interface MapCluster {
  latitude: number;
  longitude: number;
  count: number;
  states: Record<LampState, number>;
}

/**
 * `GET {QUERY_URL}/device-map?west=&south=&east=&north=&zoom=[&street=][&state=]`: the devices in a
 * bounding box, one by one up to a limit and as clusters beyond it; `counts` by lamp state of all
 * the devices in view on the street (before the state filter), `total` after it.
 */
export interface MapView {
  total: number;
  counts: Record<LampState, number>;
  devices: MapDevice[];
  clusters: MapCluster[];
}

/** `GET {QUERY_URL}/device-map/extent[?street=]`: the box around the account's placed devices (null when none). */
export interface MapExtent {
  devices: number;
  south: number | null;
  west: number | null;
  north: number | null;
  east: number | null;
}
