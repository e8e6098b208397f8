/**
 * A replica's engines gate in a process of its own, on the PostgreSQL named by CHILD_DB: the
 * engines' advisory-lock leader (watched every 200 ms, as main watches it every 2 s), and a job that
 * every 100 ms, only while leading, records a tick (replica, time) — what an engine's timer does.
 * Prints "ready", then "lead" when it takes the lead.
 */
import pg from 'pg';
import { AdvisoryLockLeader } from '../../src/engines/scheduler/leadership.ts';

const env = process.env;
const name = env.CHILD_NAME as string;
const db = new pg.Client({ connectionString: env.CHILD_DB });
db.on('error', () => {});
await db.connect();
const leadership = new AdvisoryLockLeader(env.CHILD_DB as string, BigInt(env.CHILD_LOCK_KEY as string), (leading) => {
  if (leading) process.stdout.write('lead\n');
}).watch(200);
setInterval(async () => {
  if (!(await leadership.isLeader())) return;
  await db.query('INSERT INTO leader_ticks (replica, at) VALUES ($1, clock_timestamp())', [name]).catch(() => {});
}, 100);
process.stdout.write('ready\n');
