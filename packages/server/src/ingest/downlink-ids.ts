/**
 * ChirpStack names a downlink by a UUID (`id` in `command/down`, `queueItemId` in `event/ack`).
 * Lampyr derives it from the channel write's id, so an answer finds its write even after a
 * restart, without a table of its own: `6c616d70-7972-4000-8000-<id in 12 hex digits>`
 * ("lampyr" in ASCII hex, version 4 and variant bits kept valid).
 */
const PREFIX = '6c616d70-7972-4000-8000-';

export const downlinkIdOf = (writeId: number) => `${PREFIX}${writeId.toString(16).padStart(12, '0')}`;

export function writeIdOfDownlink(value: unknown): number | undefined {
  if (typeof value !== 'string' || !value.toLowerCase().startsWith(PREFIX)) return undefined;
  const id = Number.parseInt(value.slice(PREFIX.length), 16);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
