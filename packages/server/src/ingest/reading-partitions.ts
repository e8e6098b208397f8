import { sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import type { Reading } from './ingest-units.ts';
import { StoreRefusal } from './store-errors.ts';

/**
 * Readings outside these years are refused (`store_failed`) rather than given a partition: the ingest
 * bounds device times, and this keeps any other path from creating partitions for the year 275760.
 */
const FIRST_READING_YEAR = 2000;
const READING_YEARS_AHEAD = 1;
const monthKey = (d: Date) => `${d.getUTCFullYear()}-${d.getUTCMonth()}`;

/** The readings table's monthly partitions this process has made sure of (created on first use). */
export class ReadingPartitions {
  private months = new Map<string, Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves once every month the readings fall in has its partition; refuses implausible years. */
  async ensure(readings: readonly Reading[]): Promise<void> {
    const wanted = new Map<string, Date>();
    for (const r of readings) {
      const key = monthKey(r.dateTime);
      if (!this.months.has(key) && !wanted.has(key)) wanted.set(key, r.dateTime);
    }
    const lastYear = new Date(this.now()).getUTCFullYear() + READING_YEARS_AHEAD;
    for (const at of wanted.values()) {
      const year = at.getUTCFullYear();
      if (!(year >= FIRST_READING_YEAR && year <= lastYear))
        throw new StoreRefusal(`dateTime: ${Number.isNaN(year) ? 'NaN' : at.toISOString()}`);
    }
    for (const [key, at] of wanted) {
      // Another worker creating the same month at the same moment makes ours fail "already exists" (42P07).
      const ensured = this.db
        .execute(sql`SELECT lampyr_ensure_reading_partition(${at.toISOString()}::timestamptz)`)
        .catch((error: { cause?: { code?: string } }) => {
          if (error.cause?.code !== '42P07') throw error;
        });
      this.months.set(key, ensured);
      ensured.catch(() => this.months.delete(key));
    }
    await Promise.all(readings.length ? [...new Set(readings.map((r) => this.months.get(monthKey(r.dateTime))))] : []);
  }
}
