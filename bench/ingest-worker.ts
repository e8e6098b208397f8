/**
 * The server side of `bench:ingest`, in a process of its own so its memory and CPU are its own: the
 * ingest (and, in embedded mode, the Aedes broker and PGlite), plus the raw insert measurement.
 * Driven by the benchmark over IPC.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type Db, openDatabase } from '../packages/server/src/db/connect.ts';
import { AlarmEngine } from '../packages/server/src/engines/alarms/alarm-engine.ts';
import { CommandEvents } from '../packages/server/src/events/command-events.ts';
import { LiveEvents } from '../packages/server/src/events/live-events.ts';
import { arrayLiteral, rowsOf } from '../packages/server/src/ingest/array-codec.ts';
import { insertReadings, type Reading } from '../packages/server/src/ingest/batch-writer.ts';
import { startEmbeddedBroker } from '../packages/server/src/ingest/embedded-broker.ts';
import { startIngest } from '../packages/server/src/ingest/ingest-service.ts';
import { seed } from '../packages/server/src/seed/seed.ts';
import { DEMO_APPLICATION_ID } from '../packages/simulator/src/demo-fleet.ts';

const env = process.env;
const send = (message: unknown) => process.send?.(message);
const target = env.BENCH_DB ?? 'memory://';
const joining = env.BENCH_JOIN === '1';
if (target.startsWith('postgres') && !joining) {
  // A fresh schema each run, so the figures never depend on what an earlier run left.
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  await client.query(
    'DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; CREATE SCHEMA public;',
  );
  await client.end();
}
const database = target.startsWith('postgres')
  ? await openDatabase({ url: target, dataDir: 'unused', poolSize: 8 })
  : await openDatabase({ dataDir: target });
const seeded = await seed(database.db, {
  adminEmail: 'bench@lampyr.local',
  adminPassword: 'bench-password',
  demo: true,
});
const accountId = seeded.subAccountIds[0] as number;
// 2,000 SLC-L1 lights (5 channels, the fixtures' layout) beside the seeded ones.
const DEVICES = Number(env.BENCH_DEVICES ?? 2000);
// BENCH_JOIN=1: a second worker on the first one's database (2-worker mode) adds nothing.
if (!joining)
  await database.db.execute(sql`
  INSERT INTO devices (account_id, name, device_type_model_id, dev_eui, application_id)
  SELECT ${accountId}, 'BENCH-' || n, (SELECT id FROM device_models WHERE model_name LIKE 'SLC-L1%'),
    '70b3d57ed1' || lpad(to_hex(n), 6, '0'), ${DEMO_APPLICATION_ID}
  FROM generate_series(1, ${DEVICES}) AS n`);
const benchDevices = (
  (await database.db.execute(
    sql`SELECT id, dev_eui FROM devices WHERE name LIKE 'BENCH-%' ORDER BY id`,
  )) as unknown as {
    rows: { id: number; dev_eui: string }[];
  }
).rows;
const templateIds = (
  (await database.db.execute(sql`
    SELECT t.id FROM device_channel_templates t JOIN device_models m ON m.id = t.device_type_model_id
    WHERE m.model_name LIKE 'SLC-L1%' ORDER BY t.mqtt_package_order`)) as unknown as { rows: { id: number }[] }
).rows.map((r) => Number(r.id));
/**
 * BENCH_ALARMS=1: an alarm rule on every channel of every bench device (an enabled parameter group of
 * their model, one template per channel); the fixture's temperature (36 °C) breaks its rule (> 30),
 * the other four values keep theirs — a fifth of the values violating. The engine runs as in main.
 */
let alarms: AlarmEngine | undefined;
if (env.BENCH_ALARMS === '1') {
  const group = (
    (await database.db.execute(sql`
      INSERT INTO alert_parameter_groups (account_id, name, device_type_model_id, parameter_group_code, enable)
      SELECT ${accountId}, 'Bench rules', id, 'BENCH', true FROM device_models WHERE model_name LIKE 'SLC-L1%'
      RETURNING id`)) as unknown as { rows: { id: number }[] }
  ).rows[0]?.id;
  await database.db.execute(sql`
    INSERT INTO alert_parameter_templates (account_id, name, group_id, condition, value, alert_level, threshold, channel_template_id)
    SELECT ${accountId}, 'Bench ' || t.channel_code, ${group}, CASE t.channel_code WHEN 'energy' THEN 'lt' ELSE 'gt' END,
      CASE t.channel_code WHEN 'lamp' THEN 5 WHEN 'dim' THEN 100 WHEN 'power' THEN 400 WHEN 'energy' THEN 0 ELSE 30 END,
      'medium', 2, t.id
    FROM device_channel_templates t JOIN device_models m ON m.id = t.device_type_model_id
    WHERE m.model_name LIKE 'SLC-L1%'`);
  alarms = new AlarmEngine({
    db: database.db,
    live: new LiveEvents(),
    notifier: { notify: async () => {} },
    onError: (error) => process.stderr.write(`alarms: ${String(error).slice(0, 300)}\n`),
  });
  await alarms.start();
}
const credentials = { username: 'bench', password: 'bench-password' };
const broker = env.BENCH_MQTT_URL
  ? undefined
  : await startEmbeddedBroker({ port: 0, host: '127.0.0.1', lampyr: credentials });
const url = env.BENCH_MQTT_URL ?? `mqtt://127.0.0.1:${broker?.port}`;
const live = new LiveEvents();

// End-to-end latency: an uplink's `time` is when it was published; its status event fires after commit.
const latencies: number[] = [];
live.subscribe(accountId, (events) => {
  const now = Date.now();
  for (const e of events) if (e.type === 'status') latencies.push(now - Date.parse(e.dateTime));
});
let acknowledged = 0;
let peakRss = 0;
setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  send({ type: 'progress', acknowledged });
}, 20).unref();
if (env.BENCH_DEBUG)
  setInterval(
    () => process.stderr.write(`worker ${process.pid}${joining ? ' (joined)' : ''}: ${acknowledged} acknowledged\n`),
    2000,
  ).unref();

const ingest = await startIngest({
  db: database.db,
  databaseKind: database.kind,
  // BENCH_COPY=0: the batched INSERT instead of COPY (A/B of the two).
  transactionWithClient: env.BENCH_COPY === '0' ? undefined : database.transactionWithClient,
  url,
  ...(broker ? credentials : {}),
  clientId: `lampyr-bench-${process.pid}`,
  shareGroup: env.BENCH_SHARE_GROUP ?? (broker ? '' : `lampyr-bench-${process.pid}`),
  sessionExpirySeconds: 60,
  live,
  commands: new CommandEvents(),
  downlinkTimeoutMs: 60_000,
  onAcknowledged: (count) => {
    acknowledged += count;
  },
  onCommitted: alarms ? (readings, seen) => alarms?.onCommitted(readings, seen) : undefined,
  log: {
    error: (error) =>
      process.stderr.write(
        `ingest: ${String(error).slice(0, 300)} ${String((error as { cause?: unknown }).cause ?? '').slice(0, 300)}\n`,
      ),
    warn: () => {},
  },
});

/**
 * The same rows the ingest writes, straight into the same table the way the ingest writes them
 * (`insertReadings`: COPY on PostgreSQL, the unnest INSERT on PGlite), in batches, each in its own
 * transaction; `copy` false: the batched unnest INSERT on PostgreSQL too (the ingest's fallback, and
 * the reference issue 14's ratio was first measured against).
 */
async function rawInsert(
  seconds: number,
  rowsPerBatch: number,
  concurrency: number,
  templateIds: number[],
  deviceIds: number[],
  copy: boolean,
) {
  const until = Date.now() + seconds * 1000;
  let rows = 0;
  let frame = 0;
  // Each statement's rows on a day of their own: rows already stored would be skipped, not written.
  const base = Date.UTC(2026, 10, copy ? 10 : 11);
  const worker = async () => {
    while (Date.now() < until) {
      const readings: Reading[] = [];
      for (let i = 0; i < rowsPerBatch / templateIds.length; i++) {
        const f = frame++;
        const dateTime = new Date(base + f);
        const deviceId = deviceIds[f % deviceIds.length] as number;
        for (const templateId of templateIds)
          readings.push({
            accountId,
            deviceId,
            templateId,
            subChannel: 0,
            channelCode: 'raw',
            value: f % 1000,
            status: 'ok',
            dateTime,
            frameKey: `raw:${f}`,
          });
      }
      if (copy && database.transactionWithClient)
        await database.transactionWithClient((tx, client) => insertReadings(tx, readings, client));
      else await database.db.transaction((tx) => insertReadings(tx as unknown as Db, readings));
      rows += readings.length;
    }
  };
  await database.db.execute(sql`SELECT lampyr_ensure_reading_partition(${new Date(base).toISOString()}::timestamptz)`);
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return rows / ((Date.now() - started) / 1000);
}

/**
 * Raw variants of the same rows on PostgreSQL, each for `seconds` with 3 connections of their own:
 * the ingest's statement into the parent table, the same into the month's partition (ids from the
 * parent's sequence), text COPY into the parent (no ON CONFLICT: a redelivery would need a fallback), binary COPY into
 * the parent and into the partition, and unnest and text COPY again without the (account_id, date_time) index. Rows
 * per second each.
 */
async function rawVariants(seconds: number, rowsPerBatch: number, deviceIds: number[]) {
  const base = Date.UTC(2026, 10, 12);
  const partition = String(
    rowsOf(
      await database.db.execute(
        sql`SELECT lampyr_ensure_reading_partition(${new Date(base).toISOString()}::timestamptz) AS p`,
      ),
    )[0]?.p,
  );
  let frame = 0;
  const batch = () => {
    const rows: (string | number)[][] = [];
    for (let i = 0; i < rowsPerBatch / templateIds.length; i++) {
      const f = frame++;
      const time = new Date(base + f).toISOString();
      const device = deviceIds[f % deviceIds.length] as number;
      for (const template of templateIds) rows.push([accountId, device, template, 0, f % 1000, time, 'ok', `v:${f}`]);
    }
    return rows;
  };
  // A partition has no identity of its own (PostgreSQL < 17): written directly, it takes the parent's sequence.
  const sequence = String(
    rowsOf(await database.db.execute(sql`SELECT pg_get_serial_sequence('channel_read_values', 'id') AS s`))[0]?.s,
  );
  const unnestInto = (table: string) => async (client: pg.Client, rows: (string | number)[][]) => {
    const columns = Array.from({ length: 8 }, (_, c) => arrayLiteral(rows.map((r) => r[c])));
    const direct = table !== 'channel_read_values';
    await client.query(
      `INSERT INTO ${table} (${direct ? 'id, ' : ''}account_id, device_id, device_channel_template_id, sub_channel, value, date_time, status, frame_key)
       SELECT ${direct ? `nextval('${sequence}'), ` : ''}* FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::int[], $5::float8[], $6::timestamptz[], $7::text[], $8::text[])
       ON CONFLICT DO NOTHING`,
      columns,
    );
  };
  const copyInto = (table: string) => async (client: pg.Client, rows: (string | number)[][]) => {
    const stream = client.query(
      copyFrom(
        `COPY ${table} (account_id, device_id, device_channel_template_id, sub_channel, value, date_time, status, frame_key) FROM STDIN`,
      ),
    );
    await new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', reject);
      stream.end(`${rows.map((r) => r.join('\t')).join('\n')}\n`);
    });
  };
  // COPY's binary format (PostgreSQL docs, COPY, "Binary Format"): a signature, flags and header
  // extension; per row a field count and each field as its length and its type's send form; -1 ends.
  const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
  const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);
  const binaryRows = (rows: (string | number)[][], withIds: number[] | undefined) => {
    const texts = rows.map((r) => [Buffer.from(String(r[6])), Buffer.from(String(r[7]))] as const);
    let size = SIGNATURE.length + 8 + 2;
    for (const [status, key] of texts)
      size += 2 + (withIds ? 12 : 0) + 3 * 12 + 8 + 12 + 12 + 8 + status.length + key.length;
    const out = Buffer.allocUnsafe(size);
    let at = SIGNATURE.copy(out, 0);
    at = out.writeInt32BE(0, at);
    at = out.writeInt32BE(0, at);
    const int8 = (n: number) => {
      at = out.writeInt32BE(8, at);
      const high = Math.floor(n / 4294967296);
      at = out.writeInt32BE(high, at);
      at = out.writeUInt32BE(n - high * 4294967296, at);
    };
    rows.forEach((r, i) => {
      at = out.writeInt16BE(withIds ? 9 : 8, at);
      if (withIds) int8(withIds[i] as number);
      int8(r[0] as number);
      int8(r[1] as number);
      int8(r[2] as number);
      at = out.writeInt32BE(4, at);
      at = out.writeInt32BE(r[3] as number, at);
      at = out.writeInt32BE(8, at);
      at = out.writeDoubleBE(r[4] as number, at);
      int8((Date.parse(r[5] as string) - POSTGRES_EPOCH_MS) * 1000);
      for (const text of texts[i] as readonly Buffer[]) {
        at = out.writeInt32BE(text.length, at);
        at += text.copy(out, at);
      }
    });
    out.writeInt16BE(-1, at);
    return out;
  };
  const copyBinaryInto = (table: string) => async (client: pg.Client, rows: (string | number)[][]) => {
    const direct = table !== 'channel_read_values';
    const ids = direct
      ? (
          await client.query<{ id: string }>(`SELECT nextval('${sequence}') AS id FROM generate_series(1, $1)`, [
            rows.length,
          ])
        ).rows.map((r) => Number(r.id))
      : undefined;
    const stream = client.query(
      copyFrom(
        `COPY ${table} (${direct ? 'id, ' : ''}account_id, device_id, device_channel_template_id, sub_channel, value, date_time, status, frame_key) FROM STDIN (FORMAT binary)`,
      ),
    );
    await new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', reject);
      stream.end(binaryRows(rows, ids));
    });
  };
  const measure = async (write: (client: pg.Client, rows: (string | number)[][]) => Promise<void>) => {
    const clients = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const c = new pg.Client({ connectionString: target });
        await c.connect();
        return c;
      }),
    );
    const until = Date.now() + seconds * 1000;
    let total = 0;
    const started = Date.now();
    await Promise.all(
      clients.map(async (client) => {
        while (Date.now() < until) {
          const rows = batch();
          await client.query('BEGIN');
          await write(client, rows);
          await client.query('COMMIT');
          total += rows.length;
        }
      }),
    );
    const rate = total / ((Date.now() - started) / 1000);
    await Promise.all(clients.map((c) => c.end()));
    return rate;
  };
  const result: Record<string, number> = {};
  result['unnest into the parent table'] = await measure(unnestInto('channel_read_values'));
  result['unnest into the month partition'] = await measure(unnestInto(partition));
  result['text COPY into the parent table (routed to the month)'] = await measure(copyInto('channel_read_values'));
  result['binary COPY into the parent table (routed to the month)'] = await measure(
    copyBinaryInto('channel_read_values'),
  );
  result['binary COPY into the month partition'] = await measure(copyBinaryInto(partition));
  const plain = rowsOf(
    await database.db.execute(sql`SELECT indexname FROM pg_indexes WHERE tablename = 'channel_read_values'
      AND indexdef NOT LIKE 'CREATE UNIQUE%' AND indexdef LIKE '%(account_id, date_time)%'`),
  );
  for (const index of plain) await database.db.execute(sql.raw(`DROP INDEX "${index.indexname}"`));
  result['unnest, without the (account_id, date_time) index'] = await measure(unnestInto('channel_read_values'));
  result['text COPY, without the (account_id, date_time) index'] = await measure(copyInto('channel_read_values'));
  return result;
}

process.on('message', async (message: { type: string; [key: string]: unknown }) => {
  if (message.type === 'stats') {
    const started = Date.now();
    await alarms?.idle();
    const alarmLag = Date.now() - started;
    const raised = alarms
      ? Number(
          (
            (await database.db.execute(sql`SELECT count(*)::int AS n FROM alert_logs WHERE is_active`)) as unknown as {
              rows: { n: number }[];
            }
          ).rows[0]?.n,
        )
      : 0;
    const sorted = latencies.splice(0).sort((x, y) => x - y);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
    send({
      type: 'stats',
      p50: at(0.5),
      p99: at(0.99),
      samples: sorted.length,
      rss: process.memoryUsage.rss(),
      heapUsed: process.memoryUsage().heapUsed,
      external: process.memoryUsage().external,
      peakRss,
      alarms: raised,
      alarmLag,
    });
  } else if (message.type === 'raw') {
    await ingest.close({ endSession: true });
    await alarms?.stop();
    const raw = (copy: boolean) =>
      rawInsert(
        Number(message.seconds),
        Number(message.rowsPerBatch),
        database.kind === 'postgres' ? 3 : 1,
        templateIds,
        benchDevices.map((d) => Number(d.id)),
        copy,
      );
    const rate = await raw(true);
    const insertRate = database.transactionWithClient ? await raw(false) : rate;
    send({ type: 'raw', rowsPerSecond: rate, insertRowsPerSecond: insertRate });
  } else if (message.type === 'variants') {
    send({
      type: 'variants',
      rates: await rawVariants(
        Number(message.seconds),
        Number(message.rowsPerBatch),
        benchDevices.map((d) => Number(d.id)),
      ),
    });
  } else if (message.type === 'stop') {
    await broker?.close();
    await database.close();
    process.exit(0);
  }
});
send({ type: 'ready', url, devEuis: benchDevices.map((d) => d.dev_eui), kind: database.kind });
