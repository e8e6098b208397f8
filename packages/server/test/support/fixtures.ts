import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The project's shared ChirpStack v4 fixtures (`shared/fixtures/chirpstack-v4`), found in the
 * nearest folder above this one that has them: beside the repository, or beside a worktree's parent.
 */
function fixturesDir(): string {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared/fixtures/chirpstack-v4');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error('shared/fixtures/chirpstack-v4 not found above the tests');
  }
}

const FIXTURES = fixturesDir();

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
