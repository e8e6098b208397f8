/**
 * Screens a record of a resource leads to, shown among its row actions: a task group's (or a
 * device's) schedule preview. Written by hand: what is not a plain entity.
 */
export interface RecordLink {
  /** Translation key of the link's label (also its accessible name, with the record's id). */
  label: string;
  to(id: number): string;
  /** Its icon: a calendar unless said otherwise. */
  icon?: 'members';
}

export const RECORD_LINKS: Partial<Record<string, RecordLink[]>> = {
  'task-groups': [
    { label: 'schedule.preview', to: (id) => `/tasks-schedules/schedule-preview?taskGroupId=${id}` },
    {
      label: 'groupMembers.open',
      to: (id) => `/tasks-schedules/task-group-members?taskGroupId=${id}`,
      icon: 'members',
    },
  ],
  devices: [{ label: 'schedule.preview', to: (id) => `/tasks-schedules/schedule-preview?deviceId=${id}` }],
};
