import { sql } from 'drizzle-orm';
import { bigint, date, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoTimestamp, parseTimestamp, withFastRows } from '../src/data/row-mapper.ts';
import type { Database } from '../src/db/connect.ts';
import { testDatabase } from './support/test-app.ts';

/** What Drizzle reads a timestamp as: the reference the fast parser must match exactly. */
const drizzleReads = (text: string, withTimezone: boolean) => new Date(withTimezone ? text : `${text}+0000`);

/** PostgreSQL timestamp texts of every fraction length and offset form, with whether each has a zone. */
function generatedTexts(): [string, boolean][] {
  const texts: [string, boolean][] = [];
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const two = (n: number) => String(n).padStart(2, '0');
  const offsets = ['', '+00', '-00', '+03', '-05', '+05:30', '-03:30', '+05:45', '+01:55:52', '-00:25:21', '+14'];
  for (let k = 0; k < 3000; k++) {
    const year = 1000 + Math.floor(random() * 9000);
    const month = 1 + Math.floor(random() * 12);
    const day = 1 + Math.floor(random() * 28);
    const clock = `${two(Math.floor(random() * 24))}:${two(Math.floor(random() * 60))}:${two(Math.floor(random() * 60))}`;
    const digits = Math.floor(random() * 7);
    const fraction = digits ? `.${String(Math.floor(random() * 10 ** digits)).padStart(digits, '0')}` : '';
    const offset = offsets[k % offsets.length] as string;
    texts.push([`${year}-${two(month)}-${two(day)} ${clock}${fraction}${offset}`, offset !== '']);
  }
  texts.push(
    ['2026-11-25 23:59:59.999999+00', true],
    ['2026-12-31 23:59:59.9995-01', true],
    ['2024-02-29 12:00:00', false],
  );
  return texts;
}

/**
 * The instant a text stands for: Drizzle's reading; by hand for an offset with seconds (PostgreSQL
 * writes one for local mean time), which V8 cannot read (Drizzle gets an Invalid Date there).
 */
function instantOf(text: string, withTimezone: boolean): number {
  const lmt = /([+-])(\d\d):(\d\d):(\d\d)$/.exec(text);
  return lmt
    ? drizzleReads(`${text.slice(0, -9)}+00`, true).getTime() -
        (lmt[1] === '+' ? 1 : -1) * (Number(lmt[2]) * 3600 + Number(lmt[3]) * 60 + Number(lmt[4])) * 1000
    : drizzleReads(text, withTimezone).getTime();
}

describe('parseTimestamp', () => {
  it('reads PostgreSQL ISO output as Drizzle does, for every fraction length and offset form', () => {
    const texts = generatedTexts();
    for (const [text, withTimezone] of texts)
      expect(parseTimestamp(text, withTimezone).getTime(), text).toBe(instantOf(text, withTimezone));
    expect(texts).toHaveLength(3003);
  });

  it('hands anything outside the fast form to Date, as Drizzle does', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '2026-11-25 14:30:00+00 BC',
      '0099-06-01 00:00:00+00',
      '12026-11-25 14:30:00+00',
      '2026-11-25T14:30:00Z',
      '2026-1x-25 14:30:00+00',
      '2026-11-25 14:30:00+0a',
    ]) {
      const fast = parseTimestamp(text, true).getTime();
      const reference = drizzleReads(text, true).getTime();
      expect(Number.isNaN(fast) ? 'NaN' : fast, text).toBe(Number.isNaN(reference) ? 'NaN' : reference);
    }
  });
});

const probe = pgTable('row_mapper_probe', {
  id: serial('id').primaryKey(),
  at: timestamp('at', { withTimezone: true }),
  local: timestamp('local'),
  asText: timestamp('as_text', { withTimezone: true, mode: 'string' }),
  day: date('day'),
  big: bigint('big', { mode: 'number' }),
  label: text('label'),
  extra: jsonb('extra'),
});

describe('isoTimestamp', () => {
  it("writes the text a JSON answer writes for the instant's Date, cut from UTC text or through the Date", () => {
    const texts = generatedTexts();
    for (const [text, withTimezone] of texts)
      expect(isoTimestamp(text, withTimezone), text).toBe(new Date(instantOf(text, withTimezone)).toISOString());
    expect(texts.filter(([text]) => text.endsWith('+00')).length).toBeGreaterThan(250);
    expect(isoTimestamp('2026-11-25 14:30:05.1+00', true)).toBe('2026-11-25T14:30:05.100Z');
    expect(isoTimestamp('2026-11-25 14:30:05+03', true)).toBe('2026-11-25T11:30:05.000Z');
    expect(isoTimestamp('1999-12-31 23:59:59.9999', false)).toBe('1999-12-31T23:59:59.999Z');
    expect(isoTimestamp('0099-06-01 00:00:00+00', true)).toBe(
      drizzleReads('0099-06-01 00:00:00+00', true).toISOString(),
    );
    expect(isoTimestamp('infinity', true)).toBeInstanceOf(Date);
  });
});

describe('withFastRows on the database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await testDatabase();
    await database.db.execute(sql`create table row_mapper_probe (id serial primary key, at timestamptz,
      local timestamp, as_text timestamptz, day date, big bigint, label text, extra jsonb)`);
    await database.db.execute(sql`insert into row_mapper_probe (at, local, as_text, day, big, label, extra)
      select now() - g * interval '1 day 1 hour 1.234567 second', '2026-03-29 02:30:00.5'::timestamp - g * interval '7 hours',
             now() - g * interval '1 minute', date '2026-01-01' + g, 9007199254740 + g, 'row ' || g, jsonb_build_object('g', g)
      from generate_series(1, 40) g`);
    await database.db.execute(sql`insert into row_mapper_probe (id) values (1000)`);
  });
  afterAll(() => database?.close());

  it('gives the records Drizzle gives, nulls included, on a select of plain columns', async () => {
    const columns = {
      id: probe.id,
      at: probe.at,
      local: probe.local,
      asText: probe.asText,
      day: probe.day,
      big: probe.big,
      label: probe.label,
      extra: probe.extra,
    };
    const query = () => database.db.select(columns).from(probe).orderBy(probe.id);
    const fast = query().prepare('row_mapper_fast');
    expect(withFastRows(fast)).toBe(true);
    const drizzle = await query().prepare('row_mapper_drizzle').execute();
    const mine = await fast.execute();
    expect(mine).toHaveLength(41);
    expect(mine).toEqual(drizzle);
    expect(mine[0]?.at).toBeInstanceOf(Date);
    expect(mine[40]).toEqual({
      id: 1000,
      at: null,
      local: null,
      asText: null,
      day: null,
      big: null,
      label: null,
      extra: null,
    });
  });

  it('gives timestamps as the ISO text of the Date Drizzle gives, for a JSON answer', async () => {
    const columns = { id: probe.id, at: probe.at, local: probe.local, label: probe.label };
    const query = () => database.db.select(columns).from(probe).orderBy(probe.id);
    const iso = query().prepare('row_mapper_iso');
    expect(withFastRows(iso, { isoTimestamps: true })).toBe(true);
    const drizzle = await query().prepare('row_mapper_dates').execute();
    const mine = await iso.execute();
    expect(mine).toEqual(
      drizzle.map((r) => ({ ...r, at: r.at?.toISOString() ?? null, local: r.local?.toISOString() ?? null })),
    );
    expect(typeof mine[0]?.at).toBe('string');
  });

  it('leaves a select with an expression to Drizzle', async () => {
    const statement = database.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(probe)
      .prepare('row_mapper_count');
    expect(withFastRows(statement)).toBe(false);
    expect(await statement.execute()).toEqual([{ n: 41 }]);
  });
});
