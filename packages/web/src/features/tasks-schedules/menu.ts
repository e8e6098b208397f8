import { entry, type MenuGroup } from '../../app/navigation.ts';

const g = 'tasks-schedules';

/**
 * SPEC §2 hides five of these routes' names; they are named here for the entities of SPEC §3 they
 * hold (task group–profile pairings, timings, execution periods, deploy and control logs).
 */
export const tasksSchedulesMenu: MenuGroup = {
  key: g,
  label: 'menu.groups.tasks-schedules',
  entries: [
    entry(g, 'configuration'),
    entry(g, 'task-types'),
    entry(g, 'profiles'),
    entry(g, 'task-groups'),
    entry(g, 'task-group-profile-pairings'),
    entry(g, 'task-profile-timings'),
    entry(g, 'task-profile-execution-periods'),
    entry(g, 'autonomous'),
    entry(g, 'running-tasks'),
    entry(g, 'history'),
    entry(g, 'task-deploy-response-logs'),
    entry(g, 'task-control-logs'),
  ],
};
