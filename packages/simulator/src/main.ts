import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FAULTS, Fleet, isFault } from './fleet.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883' },
    username: { type: 'string', default: process.env.MQTT_CHIRPSTACK_USERNAME ?? process.env.MQTT_USERNAME },
    password: { type: 'string', default: process.env.MQTT_CHIRPSTACK_PASSWORD ?? process.env.MQTT_PASSWORD },
    /** A JSON file {"<uid>": "<password>"}: each IP device's own login (device details in the console). */
    'ip-logins': { type: 'string' },
    devices: { type: 'string', default: '200' },
    ip: { type: 'string', default: '5' },
    period: { type: 'string', default: '20' },
    silence: { type: 'string', default: '0.01' },
    /** `<devEui or uid>:no_power|over_voltage`, repeatable. */
    fault: { type: 'string', multiple: true, default: [] },
    seed: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  process.stdout.write(`Lampyr simulator: street lights over ChirpStack v4 MQTT and IP lights in Lampyr JSON.
  --url mqtt://host:1883   broker (MQTT_URL)
  --username/--password    the LoRaWAN fleet's login, as ChirpStack (MQTT_CHIRPSTACK_USERNAME/PASSWORD)
  --ip-logins file.json    {"<uid>": "<password>"}: each IP device's own login; without it they use the above
  --devices 200            LoRaWAN lights (DevEUI 70b3d57ed005 + 0001…)
  --ip 5                   IP lights (kdk-ip-0001…)
  --period 20              seconds between reports
  --silence 0.01           chance per report of falling silent for a few periods
  --fault <id>:<kind>      ${FAULTS.join(', ')}; also at run time on topic simulator/fault
`);
  process.exit(0);
}

const ipPasswords: Record<string, string> | undefined = values['ip-logins']
  ? JSON.parse(readFileSync(values['ip-logins'], 'utf8'))
  : undefined;
const fleet = new Fleet({
  url: values.url,
  username: values.username,
  password: values.password,
  ...(ipPasswords
    ? {
        ipLogin: (uid: string) => {
          const password = ipPasswords[uid];
          return password ? { username: uid, password } : undefined;
        },
      }
    : {}),
  lights: Number(values.devices),
  ipDevices: Number(values.ip),
  reportingPeriodMs: Number(values.period) * 1000,
  silenceChance: Number(values.silence),
  ...(values.seed ? { seed: Number(values.seed) } : {}),
  log: (line) => process.stderr.write(`${line}\n`),
});
for (const spec of values.fault) {
  const [id, kind] = spec.split(':');
  if (!id || !isFault(kind) || !fleet.injectFault(id, kind)) {
    process.stderr.write(`unknown fault ${spec}\n`);
    process.exit(2);
  }
}
await fleet.start();
process.stdout.write(`Simulating ${fleet.devices.size} street lights against ${values.url}\n`);
const stop = async () => {
  await fleet.stop();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
