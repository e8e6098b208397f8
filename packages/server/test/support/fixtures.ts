import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** ChirpStack v4's messages exactly as it publishes them (copied from the project's shared fixtures). */
const FIXTURES = join(import.meta.dirname, '../fixtures/chirpstack-v4');

/** A fixture file exactly as ChirpStack publishes it. */
export const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));

/**
 * A fixture with its `time` set to `at` (a minute ago by default): the ingest replaces device times
 * more than 7 days old by the receive time, and the files' times will be that old one day.
 */
export function freshFixture(name: string, at = new Date(Date.now() - 60_000)): Record<string, unknown> {
  const message = JSON.parse(fixture(name).toString()) as Record<string, unknown>;
  if ('time' in message) message.time = at.toISOString();
  return message;
}
