import { sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { column, rowsOf } from '../ingest/array-codec.ts';

const DAY = 86_400_000;
/** The frame key of history rows (a reading of the ingest carries its frame's). */
export const HISTORY_FRAME = 'history';
/** Readings per statement. */
const BATCH_ROWS = 80_000;

/** One report of one light: its values by channel code, as the simulated controller states them. */
export interface HistorySample {
  accountId: number;
  deviceId: number;
  at: number;
  values: Record<string, number>;
}

export interface ModelChannel {
  id: number;
  code: string;
  min: number;
  max: number;
}

/** Each model's channel templates, with the limits outside which a reading is stored `out_of_range`. */
export async function channelsByModel(db: Db): Promise<Map<number, ModelChannel[]>> {
  const rows = rowsOf(
    await db.execute(sql`SELECT id, device_type_model_id, channel_code, data_limit_min, data_limit_max
      FROM device_channel_templates WHERE channel_code IS NOT NULL ORDER BY id`),
  );
  const byModel = new Map<number, ModelChannel[]>();
  for (const r of rows) {
    const model = Number(r.device_type_model_id);
    const list = byModel.get(model) ?? [];
    list.push({
      id: Number(r.id),
      code: String(r.channel_code),
      min: r.data_limit_min === null ? Number.NEGATIVE_INFINITY : Number(r.data_limit_min),
      max: r.data_limit_max === null ? Number.POSITIVE_INFINITY : Number(r.data_limit_max),
    });
    byModel.set(model, list);
  }
  return byModel;
}

export async function ensurePartitions(db: Db, from: number, to: number): Promise<void> {
  const months = new Set<string>();
  for (let t = from; t <= to + DAY; t += DAY) {
    const d = new Date(t);
    months.add(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString());
  }
  for (const month of months) {
    await db
      .execute(sql`SELECT lampyr_ensure_reading_partition(${month}::timestamptz)`)
      .catch((error: { cause?: { code?: string } }) => {
        if (error.cause?.code !== '42P07') throw error;
      });
  }
}

interface ReadingRow {
  accountId: number;
  deviceId: number;
  templateId: number;
  value: number;
  at: string;
  status: 'ok' | 'out_of_range';
}

/** A sample as the ingest would store it: one reading per channel of the light's model, judged against its limits. */
function rowsOfSample(sample: HistorySample, channels: readonly ModelChannel[]): ReadingRow[] {
  const at = new Date(sample.at).toISOString();
  const rows: ReadingRow[] = [];
  for (const c of channels) {
    const value = sample.values[c.code];
    if (value === undefined) continue;
    const status = value < c.min || value > c.max ? 'out_of_range' : 'ok';
    rows.push({ accountId: sample.accountId, deviceId: sample.deviceId, templateId: c.id, value, at, status });
  }
  return rows;
}

/** Readings written in batches of one statement each (`INSERT … SELECT FROM unnest(…)`, as the ingest does). */
export class ReadingRows {
  private rows: ReadingRow[] = [];
  written = 0;

  /** `modelOf`: each light's model (device id → model id), whose channels its readings are. */
  constructor(
    private readonly db: Db,
    private readonly channels: Map<number, ModelChannel[]>,
    private readonly modelOf: ReadonlyMap<number, number>,
  ) {}

  async add(sample: HistorySample): Promise<void> {
    for (const row of rowsOfSample(sample, this.channels.get(this.modelOf.get(sample.deviceId) ?? 0) ?? []))
      this.rows.push(row);
    if (this.rows.length >= BATCH_ROWS) await this.flush();
  }

  async flush(): Promise<void> {
    const rows = this.rows;
    if (!rows.length) return;
    this.rows = [];
    // No ON CONFLICT: each light's history starts after its newest reading, so nothing is there twice
    // (and the unique index would refuse it); speculative inserts would cost a third more.
    await this.db.execute(sql`
      INSERT INTO channel_read_values
        (account_id, device_id, device_channel_template_id, sub_channel, value, date_time, status, frame_key)
      SELECT a, d, c, 0, v, t, s, ${HISTORY_FRAME} FROM unnest(
        ${column(rows, (r) => r.accountId)}::bigint[], ${column(rows, (r) => r.deviceId)}::bigint[],
        ${column(rows, (r) => r.templateId)}::bigint[], ${column(rows, (r) => r.value)}::float8[],
        ${column(rows, (r) => r.at)}::timestamptz[], ${column(rows, (r) => r.status)}::text[]) AS u(a, d, c, v, t, s)`);
    this.written += rows.length;
  }
}

/** Each light's last history report as its latest values, unless something newer is there. */
export async function keepLatest(
  db: Db,
  samples: readonly HistorySample[],
  channels: Map<number, ModelChannel[]>,
  modelOf: ReadonlyMap<number, number>,
): Promise<void> {
  const rows = samples.flatMap((s) => rowsOfSample(s, channels.get(modelOf.get(s.deviceId) ?? 0) ?? []));
  if (!rows.length) return;
  await db.execute(sql`
    INSERT INTO channel_values (account_id, device_id, device_channel_template_id, sub_channel, value, date_time, status)
    SELECT a, d, c, 0, v, t, s FROM unnest(
      ${column(rows, (r) => r.accountId)}::bigint[], ${column(rows, (r) => r.deviceId)}::bigint[],
      ${column(rows, (r) => r.templateId)}::bigint[], ${column(rows, (r) => r.value)}::float8[],
      ${column(rows, (r) => r.at)}::timestamptz[], ${column(rows, (r) => r.status)}::text[]) AS u(a, d, c, v, t, s)
    ON CONFLICT (device_id, device_channel_template_id, sub_channel) DO UPDATE
      SET value = excluded.value, date_time = excluded.date_time, status = excluded.status, updated_at = now()
      WHERE channel_values.date_time < excluded.date_time`);
}

/** The lights heard at their last history report (online), unless heard later. */
export async function markSeen(db: Db, samples: readonly HistorySample[]): Promise<void> {
  if (!samples.length) return;
  await db.execute(sql`
    INSERT INTO device_connection_status (account_id, device_id, status, date_time, rssi, snr)
    SELECT a, d, 'online', t, -92, 7.5 FROM unnest(
      ${column(samples, (s) => s.accountId)}::bigint[], ${column(samples, (s) => s.deviceId)}::bigint[],
      ${column(samples, (s) => new Date(s.at).toISOString())}::timestamptz[]) AS u(a, d, t)
    ON CONFLICT (device_id) DO UPDATE SET status = 'online', date_time = excluded.date_time, updated_at = now()
      WHERE device_connection_status.date_time < excluded.date_time`);
}

/** What each demo light's meter reads now (kWh by devEui or uid): the simulator goes on from there. */
export async function demoMeters(db: Db, accountIds: readonly number[]): Promise<Map<string, number>> {
  if (!accountIds.length) return new Map();
  const rows = rowsOf(
    await db.execute(sql`
      SELECT lower(coalesce(d.dev_eui, d.uid)) AS id, v.value FROM channel_values v
      JOIN devices d ON d.id = v.device_id
      JOIN device_channel_templates c ON c.id = v.device_channel_template_id
      WHERE d.account_id = ANY(${`{${accountIds.join(',')}}`}::bigint[]) AND c.channel_code = 'energy'
        AND v.sub_channel = 0 AND coalesce(d.dev_eui, d.uid) IS NOT NULL`),
  );
  return new Map(rows.map((r) => [String(r.id), Number(r.value)]));
}
