import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, launchBrowser, screenshot, seriousViolations } from './support/browser.ts';
import { REPO_ROOT, type RunningServer, startServer } from './support/server.ts';

/**
 * axe on every hand-made screen (packages/web/src/features/**\/*-page.tsx), in the light and the
 * dark theme: no serious or critical violation. A new page file without a route here fails the
 * test, so a screen cannot be added without being checked.
 */
const FEATURES = join(REPO_ROOT, 'packages', 'web', 'src', 'features');

/** Where each hand-made screen shows; `{device}` is a demo device's id, `signedOut` for the sign-in screens. */
const SCREENS: Record<string, { path: string; signedOut?: boolean }> = {
  'alerts-alarms/alert-notification-list-page.tsx': { path: '/alerts-alarms/alert-notification-list' },
  'alerts-alarms/history-page.tsx': { path: '/alerts-alarms/history' },
  'alerts-alarms/real-time-page.tsx': { path: '/alerts-alarms/real-time' },
  'assets-devices/channel-write-values-page.tsx': { path: '/assets-devices/channel-write-values' },
  'assets-devices/configuration-page.tsx': { path: '/assets-devices/configuration' },
  'assets-devices/device-actions-page.tsx': { path: '/assets-devices/configuration?action=config-deploy' },
  'assets-devices/device-details-page.tsx': { path: '/assets-devices/device-details?id={device}' },
  'assets-devices/devices-page.tsx': { path: '/assets-devices/devices' },
  'assets-devices/graphic-page.tsx': { path: '/assets-devices/graphic?deviceId={device}' },
  'assets-devices/map-page.tsx': { path: '/assets-devices/map' },
  'assets-devices/topology-page.tsx': { path: '/device-topology/1' },
  'auth/change-password-page.tsx': { path: '/ChangePasword' },
  'auth/login-page.tsx': { path: '/login', signedOut: true },
  'auth/register-page.tsx': { path: '/register', signedOut: true },
  'auth/verify-otp-page.tsx': { path: '/verifyotp?email=someone%40example.org', signedOut: true },
  'dashboards/charts-page.tsx': { path: '/dashboards/charts' },
  'dashboards/dashboards-page.tsx': { path: '/dashboards/dashboards' },
  'dashboards/overview-page.tsx': { path: '/dashboards/overview' },
  'home/home-page.tsx': { path: '/' },
  'home/not-found-page.tsx': { path: '/no-such-screen' },
  'maintenance-fault/fault-history-page.tsx': { path: '/maintenance-fault/fault-history' },
  'maintenance-fault/kpi-page.tsx': { path: '/maintenance-fault/kpi' },
  'maintenance-fault/maintenance-history-page.tsx': { path: '/maintenance-fault/maintenance-history' },
  'maintenance-fault/report-a-fault-page.tsx': { path: '/maintenance-fault/report-a-fault' },
  'reports-analytics/alarm-report-page.tsx': { path: '/reports-analytics/alarms' },
  'reports-analytics/asset-report-page.tsx': { path: '/reports-analytics/device-asset' },
  'reports-analytics/report-templates-page.tsx': { path: '/reports-analytics/templates' },
  'reports-analytics/savings-page.tsx': { path: '/reports-analytics/savings' },
  'system/platform-page.tsx': { path: '/system/platform' },
  'tasks-schedules/group-members-page.tsx': { path: '/tasks-schedules/task-group-members' },
  'tasks-schedules/overrides-page.tsx': { path: '/tasks-schedules/overrides' },
  'tasks-schedules/running-tasks-page.tsx': { path: '/tasks-schedules/running-tasks' },
  'tasks-schedules/schedule-preview-page.tsx': { path: '/tasks-schedules/schedule-preview' },
};

function pageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? pageFiles(join(dir, e.name))
      : e.name.endsWith('-page.tsx')
        ? [relative(FEATURES, join(dir, e.name))]
        : [],
  );
}

let server: RunningServer;
let browser: Browser;
let deviceId = 0;

/** A browser context in a theme (stored, as the theme switch stores it), signed in unless `signedOut`. */
async function themed(theme: 'light' | 'dark', signedOut: boolean): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: theme });
  await context.addInitScript((mode) => localStorage.setItem('theme', mode), theme);
  const page = await context.newPage();
  // A loaded machine (several test runs at once) is slow to answer: wait longer than the default.
  page.setDefaultTimeout(60_000);
  page.setDefaultNavigationTimeout(120_000);
  await page.goto(`${server.url}/login`);
  if (!signedOut) {
    await page.getByLabel('Email').fill('admin@lampyr.local');
    await page.getByLabel('Password', { exact: true }).fill('lampyr-admin');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/`);
  }
  return { context, page };
}

/** Waits until the screen shows its heading and has stopped loading (no spinner, network quiet). */
async function settle(page: Page) {
  await page.locator('h1, h2, .ant-card-head-title').first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await expect.poll(() => page.locator('.ant-spin-spinning, .ant-skeleton-active').count()).toBe(0);
  // Entrance animations (cards, tags, the table's rows) fade in: axe would measure them half-drawn.
  await page.waitForTimeout(700);
}

describe('accessibility of every hand-made screen (axe, light and dark)', () => {
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const { context, page } = await themed('light', false);
    deviceId = await page.evaluate(async () => {
      const response = await fetch('/query/api/devices', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${localStorage.getItem('authToken')}`,
          'X-Account-Id': String(JSON.parse(localStorage.getItem('selectedAccount') ?? '{}').id),
        },
        body: JSON.stringify({ filter: {}, pageable: { page: 1, size: 1, sort: ['name,asc'] } }),
      });
      return (await response.json()).data.content[0].id as number;
    });
    await context.close();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('knows where every hand-made screen shows', () => {
    expect(pageFiles(FEATURES).sort()).toEqual(Object.keys(SCREENS).sort());
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`finds no serious or critical violation on any hand-made screen in the ${theme} theme`, async () => {
      expect(deviceId).toBeGreaterThan(0);
      const failures: Record<string, unknown> = {};
      for (const signedOut of [false, true]) {
        const { context, page } = await themed(theme, signedOut);
        const errors = collectPageErrors(page);
        for (const [file, screen] of Object.entries(SCREENS)) {
          if (Boolean(screen.signedOut) !== signedOut) continue;
          await page.goto(`${server.url}${screen.path.replace('{device}', String(deviceId))}`);
          await settle(page);
          const violations = await seriousViolations(page);
          if (violations.length) {
            failures[file] = violations;
            await screenshot(page, `a11y-${theme}-${file.replace(/\W+/g, '-')}`);
          }
        }
        expect(errors).toEqual([]);
        await context.close();
      }
      expect(failures, JSON.stringify(failures, null, 2)).toEqual({});
    }, 600_000);
  }
});
