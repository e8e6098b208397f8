/**
 * `npm run bench:ingest`: ChirpStack uplinks of 5 channel values published through the broker as
 * fast as the ingest takes them (decoding and storage on), for BENCH_SECONDS (default 30), on
 * PostgreSQL with Mosquitto (BENCH_DATABASE_URL, BENCH_MQTT_URL; defaults: the local `test`
 * database and broker); in the same run, the raw batched insert rate of the same rows into the same
 * table. Then the same on the embedded pair (Aedes + PGlite). The server side runs in a child
 * process (bench/ingest-worker.ts), so its memory is its own.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { connectPublisher } from './publisher.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 30);
const embeddedSeconds = Number(process.env.BENCH_EMBEDDED_SECONDS ?? 15);
const warmupSeconds = 3;
const postgresUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const brokerUrl = process.env.BENCH_MQTT_URL ?? process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
/** Uplinks published but not yet stored at most: the broker's queue stays bounded (Mosquitto drops past its limit). */
const WINDOW = Number(process.env.BENCH_WINDOW ?? 4000);
const APPLICATION_ID = '0b6a4c6e-6f2c-4e3a-9d0b-6a4b8e1f2a11';
const DATA = 'AWQAkQAAA+gAJA=='; // the fixture's 5 channels

interface Result {
  label: string;
  uplinksPerSecond: number;
  p50: number;
  p99: number;
  rssMb: number;
  peakRssMb: number;
  rawRowsPerSecond: number;
  /** With alarm rules: active alarms at the end, and how long the engine took to finish its backlog. */
  alarms?: number;
  alarmLagMs?: number;
}

type Message = { type: string; [key: string]: unknown };

function nextMessage(child: ChildProcess, type: string): Promise<Message> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: Message) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

async function run(label: string, env: Record<string, string>, duration: number): Promise<Result> {
  const child = fork(join(import.meta.dirname, 'ingest-worker.ts'), {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [])],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let acknowledged = 0;
  let pump = () => {};
  child.on('message', (m: Message) => {
    if (m.type !== 'progress') return;
    acknowledged = m.acknowledged as number;
    pump();
  });
  const ready = await nextMessage(child, 'ready');
  const devEuis = ready.devEuis as string[];
  const embedded = !env.BENCH_MQTT_URL;
  const publisher = await connectPublisher(
    ready.url as string,
    `lampyr-bench-publisher-${process.pid}`,
    ...(embedded ? ['bench', 'bench-password'] : []),
  );

  const fCnt = new Map<string, number>();
  let published = 0;
  let stopped = false;
  let pumping = false;
  // Tops the window up whenever the ingest reports progress; bursts of 500 let I/O in between.
  pump = () => {
    if (stopped || pumping) return;
    let burst = 0;
    while (published - acknowledged < WINDOW && burst < 500) {
      const devEui = devEuis[published % devEuis.length] as string;
      const count = (fCnt.get(devEui) ?? 0) + 1;
      fCnt.set(devEui, count);
      const message = {
        deduplicationId: `bench-${published}`,
        time: new Date().toISOString(),
        deviceInfo: { applicationId: APPLICATION_ID, applicationName: 'street-lighting', devEui, deviceName: devEui },
        devAddr: '01fa3c27',
        fCnt: count,
        fPort: 10,
        confirmed: false,
        data: DATA,
        rxInfo: [{ gatewayId: 'a840411b2c3d4e5f', rssi: -97, snr: 6.5, crcStatus: 'CRC_OK' }],
      };
      publisher.publish(`application/${APPLICATION_ID}/device/${devEui}/event/up`, JSON.stringify(message));
      published++;
      burst++;
    }
    publisher.flush();
    if (published - acknowledged < WINDOW) {
      pumping = true;
      setImmediate(() => {
        pumping = false;
        pump();
      });
    }
  };
  pump();

  await new Promise((r) => setTimeout(r, warmupSeconds * 1000));
  child.send({ type: 'stats' });
  await nextMessage(child, 'stats'); // drop the warm-up latencies
  const startAcked = acknowledged;
  const started = Date.now();
  await new Promise((r) => setTimeout(r, duration * 1000));
  const uplinksPerSecond = (acknowledged - startAcked) / ((Date.now() - started) / 1000);
  child.send({ type: 'stats' });
  const stats = await nextMessage(child, 'stats');
  stopped = true;
  await publisher.end();

  child.send({ type: 'raw', seconds: Math.min(10, duration), rowsPerBatch: 5000 });
  const raw = await nextMessage(child, 'raw');
  child.send({ type: 'stop' });
  await new Promise((resolve) => child.once('exit', resolve));
  return {
    label,
    uplinksPerSecond,
    p50: stats.p50 as number,
    p99: stats.p99 as number,
    rssMb: (stats.rss as number) / 2 ** 20,
    peakRssMb: (stats.peakRss as number) / 2 ** 20,
    rawRowsPerSecond: raw.rowsPerSecond as number,
    alarms: stats.alarms as number,
    alarmLagMs: stats.alarmLag as number,
  };
}

function print(r: Result): void {
  const values = r.uplinksPerSecond * 5;
  const lines = [
    `${r.label}`,
    `  end to end:       ${Math.round(r.uplinksPerSecond).toLocaleString('en')} uplinks/s, ${Math.round(values).toLocaleString('en')} values/s`,
    `  latency:          p50 ${r.p50} ms, p99 ${r.p99} ms (publish → committed)`,
    `  server memory:    ${r.rssMb.toFixed(0)} MB RSS at the end, ${r.peakRssMb.toFixed(0)} MB peak`,
    `  raw batched insert of the same rows: ${Math.round(r.rawRowsPerSecond).toLocaleString('en')} rows/s (${Math.round(r.rawRowsPerSecond / 5).toLocaleString('en')} uplinks/s)`,
    `  ratio end-to-end / raw: ${(values / r.rawRowsPerSecond).toFixed(2)}`,
    ...(r.alarms
      ? [
          `  alarm rules: ${r.alarms.toLocaleString('en')} alarms active; engine caught up ${r.alarmLagMs} ms after the run`,
        ]
      : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

process.stdout.write(
  `bench:ingest — ${seconds} s on PostgreSQL + ${brokerUrl}, then ${embeddedSeconds} s embedded\n\n`,
);
const postgres = { BENCH_DB: postgresUrl, BENCH_MQTT_URL: brokerUrl };
if (process.env.BENCH_ALARMS === '0') {
  print(await run('PostgreSQL + Mosquitto', postgres, seconds));
} else {
  // Without and with an alarm rule on every channel of every device (a fifth of the values
  // violating), taken in turns so that a busy neighbour on the machine weighs on both alike.
  const rounds = Number(process.env.BENCH_ALARM_ROUNDS ?? 2);
  let plain = 0;
  let ruled = 0;
  for (let round = 1; round <= rounds; round++) {
    const without = await run(`PostgreSQL + Mosquitto (round ${round})`, postgres, seconds);
    print(without);
    const withRules = await run(
      `PostgreSQL + Mosquitto, alarm rules on every channel (round ${round})`,
      { ...postgres, BENCH_ALARMS: '1' },
      seconds,
    );
    print(withRules);
    plain += without.uplinksPerSecond;
    ruled += withRules.uplinksPerSecond;
  }
  process.stdout.write(
    `with alarm rules / without: ${(ruled / plain).toFixed(2)} over ${rounds} rounds (target ≥ 0.85)\n\n`,
  );
}
if (embeddedSeconds > 0)
  print(await run('Embedded: Aedes + PGlite (in memory)', { BENCH_DB: 'memory://' }, embeddedSeconds));
