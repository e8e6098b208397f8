import type { AlarmCommandResult } from '@lampyr/contract';
import type { Actor } from '../access/access.ts';

/**
 * What an operator may do to alarms (DEVICES.md "Alarms", lifecycle), as the HTTP routes see it; the
 * alarm engine implements it. Ids outside the actor's account are skipped as `notFound`, exactly
 * like ids that do not exist.
 */
export interface AlarmCommands {
  acknowledge(actor: Actor, ids: number[], comment: string | undefined): Promise<AlarmCommandResult>;
  clear(actor: Actor, ids: number[], comment: string): Promise<AlarmCommandResult>;
  shelve(actor: Actor, ids: number[], until: Date, comment: string | undefined): Promise<AlarmCommandResult>;
}

/** Why an id was left alone. */
export type AlarmSkipReason = 'notFound' | 'alreadyCleared' | 'alreadyAcknowledged';
