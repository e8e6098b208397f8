import { entry, type MenuGroup } from '../../app/navigation.ts';

const g = 'tasks-schedules';

/**
 * SPEC §2 hides five of these routes' names; they take the catalogue's routes of the SPEC §3
 * entities they hold (group–profile pairings, timings, execution periods, deploy and control
 * logs). Configuration, running tasks and history show the closest entity's list.
 */
export const tasksSchedulesMenu: MenuGroup = {
  key: g,
  label: 'menu.groups.tasks-schedules',
  entries: [
    entry(g, 'configuration', { resource: 'task-group-profiles' }),
    entry(g, 'task-types'),
    entry(g, 'profiles'),
    entry(g, 'task-groups'),
    entry(g, 'task-group-profiles'),
    entry(g, 'task-profile-timings'),
    entry(g, 'task-profile-execution-periods'),
    entry(g, 'autonomous'),
    entry(g, 'running-tasks', { resource: 'task-groups', filter: { status: 'active' } }),
    entry(g, 'history', { resource: 'task-control-logs' }),
    entry(g, 'deploy-response-logs'),
    entry(g, 'task-control-logs'),
  ],
};
