import { randomUUID } from 'node:crypto';

/**
 * A command's id on the wire (ChirpStack's `command/down` `id`, its `queueItemId` in `event/ack`, and
 * Lampyr JSON's `id`): a random UUID (122 random bits), stored with the channel write. An answer
 * settles a write only by this id *and* the device it was sent to, so neither guessing nor another
 * device's answer can settle it.
 */
export const newDownlinkId = (): string => randomUUID();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The id an answer names, in its stored form, or `undefined` when it is not one of ours. */
export function parseDownlinkId(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length !== 36) return undefined;
  const id = value.toLowerCase();
  return UUID.test(id) ? id : undefined;
}
