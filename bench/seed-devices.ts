/**
 * `npm run seed:devices -- 100000 [--account <id>] [--graph]`: adds that many street lights to an
 * account (default: the first demo sub-account, else the first account with devices, else the
 * integrator), spread over a 30 × 30 km square around Istanbul, in regions of the account, each with
 * a connection status (nine in ten online) and its latest values; `--graph` adds 15 days of one value
 * a minute (21,600 readings) to every channel of the first seeded light, for the graph measurement.
 *
 * On `DATABASE_URL` (PostgreSQL) while Lampyr runs, or on the embedded database in `DATA_DIR`
 * (default ./data) while it is stopped (PGlite takes one process). Batches of 10,000 rows, one
 * transaction each; prints what it added and how long it took. Names are `SCALE-<n>` and DevEUIs
 * `5ca1e0` + 10 hex digits, so a second run continues the numbering.
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../packages/server/src/db/connect.ts';

const args = process.argv.slice(2);
const count = Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const withGraph = args.includes('--graph');
const BATCH = 10_000;

if (!(count > 0 && count <= 5_000_000)) {
  process.stderr.write('usage: npm run seed:devices -- <count 1 … 5,000,000> [--account <id>] [--graph]\n');
  process.exit(2);
}

const database = await openDatabase(
  process.env.DATABASE_URL
    ? { url: process.env.DATABASE_URL, dataDir: 'unused' }
    : { dataDir: process.env.DATA_DIR ?? './data' },
);
const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

const requested = option('--account');
const accountId = requested
  ? Number(requested)
  : Number(
      (
        await rows<{ id: number }>(sql`
          SELECT id::int FROM accounts ORDER BY is_sub_account DESC,
            (SELECT count(*) FROM devices d WHERE d.account_id = accounts.id) DESC, id LIMIT 1`)
      )[0]?.id,
    );
const model = (
  await rows<{ id: number }>(sql`SELECT id::int FROM device_models WHERE model_name LIKE 'SLC-L1%' ORDER BY id LIMIT 1`)
)[0];
if (!accountId || !model) {
  process.stderr.write('No account or SLC-L1 model: start Lampyr once first so that it seeds its database.\n');
  process.exit(1);
}
const regionIds = (
  await rows<{ id: number }>(sql`SELECT id::int FROM regions WHERE account_id = ${accountId} ORDER BY id`)
).map((r) => r.id);
const first =
  Number(
    (await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM devices WHERE name LIKE 'SCALE-%'`))[0]?.n ?? 0,
  ) + 1;
const regions = regionIds.length ? regionIds : [null];

// The lights' ChirpStack application, registered to their account: the ingest refuses an uplink
// whose application is not one of the device's account (application_mismatch).
await database.db.execute(sql`
  INSERT INTO gateway_applications (account_id, name, chirpstack_application_id)
  VALUES (${accountId}, 'Scale bench', 'scale-bench')
  ON CONFLICT (chirpstack_application_id) DO NOTHING`);

const started = performance.now();
for (let from = first; from < first + count; from += BATCH) {
  const to = Math.min(first + count - 1, from + BATCH - 1);
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO devices (account_id, name, device_type_model_id, region_id, street, latitude, longitude,
                           dev_eui, application_id, status, is_active, rated_power)
      SELECT ${accountId}, 'SCALE-' || lpad(n::text, 7, '0'), ${model.id},
             (${sql.raw(`ARRAY[${regions.map((r) => (r === null ? 'NULL' : r)).join(',')}]::bigint[]`)})[1 + n % ${regions.length}],
             'Scale Caddesi ' || (n / 40)::int,
             40.87 + ((n::bigint * 7919) % 27000) / 100000.0, 28.80 + ((n::bigint * 104729) % 35000) / 100000.0,
             '5ca1e0' || lpad(to_hex(n), 10, '0'), 'scale-bench', 'commissioned', true, 100
      FROM generate_series(${from}::int, ${to}::int) AS n`);
    await tx.execute(sql`
      INSERT INTO device_connection_status (account_id, device_id, status, date_time, rssi, snr)
      SELECT account_id, id, CASE WHEN id % 10 = 0 THEN 'offline' ELSE 'online' END,
             now() - (id % 3600) * interval '1 second', -90 - id % 30, 5
      FROM devices WHERE name BETWEEN 'SCALE-' || lpad(${from}::text, 7, '0') AND 'SCALE-' || lpad(${to}::text, 7, '0')`);
    await tx.execute(sql`
      INSERT INTO channel_values (account_id, device_id, device_channel_template_id, sub_channel, value, date_time, status)
      SELECT d.account_id, d.id, c.id, 0, 50 + d.id % 50, now(), 'ok'
      FROM devices d JOIN device_channel_templates c ON c.device_type_model_id = d.device_type_model_id
      WHERE d.name BETWEEN 'SCALE-' || lpad(${from}::text, 7, '0') AND 'SCALE-' || lpad(${to}::text, 7, '0')`);
  });
  process.stdout.write(`  ${(to - first + 1).toLocaleString('en')} / ${count.toLocaleString('en')}\r`);
}
process.stdout.write(
  `\nseed:devices — ${count.toLocaleString('en')} lights added to account ${accountId} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);

if (withGraph) {
  const target = (
    await rows<{ device_id: number }>(sql`
      SELECT id::int AS device_id FROM devices WHERE name = 'SCALE-' || lpad(${first}::text, 7, '0')`)
  )[0];
  if (target) {
    const start = new Date(Date.now() - 15 * 86_400_000);
    for (let month = 0; month <= 1; month++)
      await database.db.execute(
        sql`SELECT lampyr_ensure_reading_partition(${new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + month, 1)).toISOString()}::timestamptz)`,
      );
    // Every channel of the device, so whichever the graph shows first holds 21,600 readings.
    await database.db.execute(sql`
      INSERT INTO channel_read_values (account_id, device_id, device_channel_template_id, sub_channel, value, date_time, status, frame_key)
      SELECT d.account_id, d.id, c.id, 0, 60 + 40 * sin(m / 720.0 * pi()),
             ${start.toISOString()}::timestamptz + m * interval '1 minute', 'ok', 'scale:' || m
      FROM devices d JOIN device_channel_templates c ON c.device_type_model_id = d.device_type_model_id
      CROSS JOIN generate_series(0, 21599) AS m
      WHERE d.id = ${target.device_id}
      ON CONFLICT DO NOTHING`);
    process.stdout.write(
      `  graph: 21,600 readings per channel (15 days, one a minute) on device ${target.device_id} (SCALE-${String(first).padStart(7, '0')})\n`,
    );
  }
}
await database.close();
