import type { FaultRule } from '@lampyr/contract';
import type { Fault } from '@lampyr/simulator';
import { devEuiOf } from '@lampyr/simulator/demo-fleet';
import type { TransitionInput } from '../data/work-orders.ts';
import { addDays, localDate, zonedInstant } from '../engines/sun-times/zoned-time.ts';

const MINUTE = 60_000;

/** A while in which a light misbehaves: a simulator fault, or silence (it sends nothing). */
export interface Episode {
  fault: Fault | 'silent';
  from: Date;
  until: Date;
  /** It reports this often meanwhile (a controller reporting each change of its lamp). */
  reportEveryMs?: number;
}

/** What a person does about the fault, and when: a work-order transition, or acknowledging its alarm. */
export type CrewStep =
  | { at: Date; do: 'acknowledge' }
  | { at: Date; do: 'transition'; input: DistributiveOmit<TransitionInput, 'id'> };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface DemoFault {
  /** The light, as the simulator knows it (devEui or uid). */
  simulatorId: string;
  episodes: Episode[];
  /** The fault report the crew works on: the rule that raised it (or `communicationLoss`). */
  report: FaultRule | 'communicationLoss';
  crew: CrewStep[];
}

/**
 * The demo's faults over the last two weeks, by light and local time before `end` (the first start):
 * a lamp that failed one night and was repaired two days later, a controller relay stuck closed (a
 * day-burner), an end-of-life lamp cycling one evening (its replacement planned), and a light silent
 * for a night after a power cut in its street. Their alarms are not scripted: they follow from the
 * readings these make, judged by the engines' own rules.
 */
export function demoFaults(end: Date, timeZone: string): DemoFault[] {
  const today = localDate(end, timeZone);
  const day = (daysAgo: number) => addDays(today, -daysAgo);
  const at = (daysAgo: number, clock: string) => {
    const [h, m] = clock.split(':').map(Number) as [number, number];
    return zonedInstant(day(daysAgo), h * 60 + m, timeZone);
  };
  const transition = (when: Date, input: DistributiveOmit<TransitionInput, 'id'>): CrewStep => ({
    at: when,
    do: 'transition',
    input,
  });
  return [
    {
      simulatorId: devEuiOf(42),
      report: 'lampFailure',
      episodes: [{ fault: 'no_power', from: at(9, '21:40'), until: at(7, '11:20') }],
      crew: [
        { at: at(8, '07:50'), do: 'acknowledge' },
        transition(at(8, '08:40'), {
          transition: 'assign',
          assigneeId: 0,
          crew: 'Crew 2 (Caferağa)',
          note: 'Dark since last night',
        }),
        transition(at(8, '08:45'), { transition: 'plan', plannedDate: day(7), work: 'Check the driver and the lamp' }),
        transition(at(7, '10:35'), { transition: 'start' }),
        transition(at(7, '11:20'), {
          transition: 'resolve',
          resolution: 'LED driver failed; replaced, lamp tested at 100 % and 50 %',
          partsUsed: 'LED driver 120 W × 1',
        }),
        transition(at(6, '09:15'), { transition: 'close', note: 'Lit all night since the repair' }),
      ],
    },
    {
      simulatorId: devEuiOf(131),
      report: 'dayBurning',
      episodes: [{ fault: 'day_burning', from: at(12, '04:00'), until: at(11, '14:05') }],
      crew: [
        { at: at(12, '09:30'), do: 'acknowledge' },
        transition(at(12, '09:40'), { transition: 'assign', assigneeId: 0, crew: 'Crew 1 (Moda)' }),
        transition(at(12, '09:45'), { transition: 'plan', plannedDate: day(11), work: 'Replace the controller relay' }),
        transition(at(11, '13:30'), { transition: 'start' }),
        transition(at(11, '14:05'), {
          transition: 'resolve',
          resolution: 'Relay stuck closed; replaced',
          partsUsed: 'Relay 16 A × 1',
        }),
        transition(at(10, '09:00'), { transition: 'close' }),
      ],
    },
    {
      simulatorId: devEuiOf(163),
      report: 'cycling',
      episodes: [{ fault: 'cycling', from: at(3, '20:30'), until: at(3, '23:30'), reportEveryMs: 10 * MINUTE }],
      crew: [
        transition(at(2, '09:05'), {
          transition: 'assign',
          assigneeId: 0,
          crew: 'Crew 1 (Moda)',
          note: 'Went on and off for three hours last night',
        }),
        transition(at(2, '09:10'), {
          transition: 'plan',
          plannedDate: addDays(today, 1),
          work: 'Replace the lamp (end of life)',
        }),
      ],
    },
    {
      simulatorId: devEuiOf(15),
      report: 'communicationLoss',
      episodes: [{ fault: 'silent', from: at(4, '19:20'), until: at(3, '07:45') }],
      crew: [
        { at: at(4, '20:05'), do: 'acknowledge' },
        transition(at(3, '08:20'), { transition: 'assign', assigneeId: 0, crew: 'Crew 2 (Caferağa)' }),
        transition(at(3, '08:25'), { transition: 'start' }),
        transition(at(3, '08:40'), {
          transition: 'resolve',
          resolution: 'Back on its own at 07:45 after a power cut in the street; no visit needed',
        }),
        transition(at(3, '08:45'), { transition: 'close' }),
      ],
    },
  ];
}
