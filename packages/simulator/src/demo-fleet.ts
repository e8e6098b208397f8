/**
 * The demo fleet as both sides know it: the seed writes it into the database, the simulator plays
 * it. Device EUIs and uids, how many lights are lost, and the channel layouts the payload codec
 * follows. Plain data, no server code, so the simulator does not depend on the server.
 */

/** The ChirpStack application of the fixtures; its uplinks belong to Kadıköy. */
export const DEMO_APPLICATION_ID = '0b6a4c6e-6f2c-4e3a-9d0b-6a4b8e1f2a11';
/** The demo gateways' EUIs, as ChirpStack reports them in `rxInfo[].gatewayId`. */
export const GATEWAY_EUIS = ['a840411b2c3d4e5f', 'a840411b2c3d4e60', 'a840411b2c3d4e61'] as const;
export const devEuiOf = (n: number) => `70b3d57ed005${n.toString(16).padStart(4, '0')}`;
export const ipUidOf = (n: number) => `kdk-ip-${String(n).padStart(4, '0')}`;
/**
 * The last lights of the 200 are lost in the field: the seed shows them offline since yesterday and
 * the demo fleet leaves them silent, so the dashboard and the map have something to point at.
 */
export const LOST_LIGHTS = 3;
export const lostLightEuis = (lights = 200) =>
  Array.from({ length: LOST_LIGHTS }, (_, k) => devEuiOf(lights - LOST_LIGHTS + 1 + k));

/**
 * A channel layout: code, label, data type, bytes, formula, unit, limits, writable. The order is the
 * order in the payload (`mqttPackageOrder`). `SLC-L1` is the layout of the ChirpStack fixtures.
 */
export type Channel = [
  code: string,
  label: string,
  type: string,
  bytes: number,
  formula: string,
  unit: string,
  min: number,
  max: number,
  write: boolean,
];
const LAMP: Channel = ['lamp', 'Lamp state', 'bool', 1, 'x', '', 0, 1, true];
const DIM: Channel = ['dim', 'Dim level', 'uint8', 1, 'x', '%', 0, 100, true];
const POWER: Channel = ['power', 'Power', 'uint16', 2, 'x', 'W', 0, 400, false];
const VOLTAGE: Channel = ['voltage', 'Voltage', 'uint16', 2, 'x * k', 'V', 180, 253, false];
const CURRENT: Channel = ['current', 'Current', 'uint16', 2, 'x * k', 'A', 0, 2, false];
const ENERGY: Channel = ['energy', 'Energy', 'uint32', 4, 'x * k', 'kWh', 0, 1_000_000, false];
const LUX: Channel = ['lux', 'Ambient light', 'uint16', 2, 'x', 'lx', 0, 100_000, false];
const TEMPERATURE: Channel = ['temperature', 'Temperature', 'int16', 2, 'x', '°C', -40, 85, false];
/** The constants of the scaled channels' formulas (`variables`), shared with the simulator. */
export const SCALE: Record<string, string> = { voltage: 'k=0.1', current: 'k=0.001', energy: 'k=0.01' };

export const LAYOUTS = {
  l1: [LAMP, DIM, POWER, ENERGY, TEMPERATURE],
  l2: [LAMP, DIM, POWER, VOLTAGE, CURRENT, ENERGY, LUX, TEMPERATURE],
};
