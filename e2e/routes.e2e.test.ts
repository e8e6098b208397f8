import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutRoutes } from '../packages/web/src/app/menu.ts';
import { collectPageErrors, launchBrowser } from './support/browser.ts';
import { type RunningServer, startServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let page: Page;

describe('every SPEC §2 route', () => {
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill('admin@lampyr.local');
    await page.getByLabel('Password', { exact: true }).fill('lampyr-admin');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('opens a real screen: a heading, no blank page, no page error', async () => {
    const errors = collectPageErrors(page);
    const paths = ['', 'ChangePasword', 'device-topology/1', ...layoutRoutes().map((e) => e.path)];
    const blank: string[] = [];
    for (const path of paths) {
      // Client-side navigation, as the menu does it.
      await page.evaluate((to) => {
        history.pushState({}, '', to);
        dispatchEvent(new PopStateEvent('popstate'));
      }, `/${path}`);
      const heading = page.locator('main h2, main .ant-card-head-title').first();
      try {
        await heading.waitFor({ state: 'visible', timeout: 10_000 });
      } catch {
        blank.push(path);
      }
    }
    expect(blank).toEqual([]);
    expect(errors).toEqual([]);
  });
});
