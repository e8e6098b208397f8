import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, launchBrowser, SHOTS_DIR, screenshot, seriousViolations } from './support/browser.ts';
import { type RunningServer, startServer } from './support/server.ts';

/**
 * The console on a phone (390×844): the menu is a drawer that closes when a screen is chosen, no
 * screen is wider than the phone, titles wrap instead of being cut, wide tables scroll inside their
 * card with the key column fixed, and Live Control's commands stay reachable. Then, on a desktop,
 * the side menu stays in place on a long scrolled page.
 */
const PHONE = { width: 390, height: 844 };

let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];
let deviceId = 0;

/** Opens the drawer, opens `group` and chooses `entry`; the drawer closes and the screen opens. */
async function navigate(group: string, entry: string, url: RegExp) {
  const drawer = page.locator('.ant-drawer-content-wrapper');
  const menu = page.getByTestId('side-menu');
  const item = menu.getByRole('menuitem', { name: entry, exact: true });
  for (let attempt = 0; ; attempt++) {
    if (!(await drawer.isVisible())) {
      await page.locator('header button').first().click();
      await drawer.waitFor({ state: 'visible' });
      // A drawer over the page: the page keeps its whole width behind it.
      const mainWidth = await page
        .locator('main')
        .first()
        .evaluate((el) => el.getBoundingClientRect().width);
      expect(mainWidth).toBeGreaterThan(PHONE.width - 40);
      // The drawer slides in: let it settle before choosing.
      await page.waitForTimeout(500);
    }
    // Open the group if it is closed; a group's name follows its icon's label ("dashboard Dashboards").
    for (let open = 0; open < 3 && !(await item.isVisible()); open++) {
      await menu.getByRole('menuitem', { name: new RegExp(`(^|\\s)${group}$`) }).click();
      await item.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => undefined);
    }
    // An entry below the drawer's fold is scrolled to, and the group's opening animation has ended.
    await item.scrollIntoViewIfNeeded();
    await page.waitForTimeout(400);
    await item.click();
    const went = await page.waitForURL(url, { timeout: 15_000 }).then(
      () => true,
      () => false,
    );
    if (went) break;
    if (attempt === 2) throw new Error(`The menu entry ${entry} did not lead to ${url}`);
  }
  await drawer.waitFor({ state: 'hidden' });
  expect(await page.locator('.ant-drawer-open').count()).toBe(0);
}

/** Waits until the screen has its heading and has stopped loading. */
async function settle() {
  await page.locator('main h2, main .ant-card-head-title').first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await expect.poll(() => page.locator('main .ant-spin-spinning').count()).toBe(0);
  await page.waitForTimeout(500);
}

/** Nothing wider than the phone, and no title cut: every heading shows its whole text. */
async function expectFitsThePhone(name: string) {
  const widths = await page.evaluate(() => ({
    document: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(widths.document, `${name}: ${JSON.stringify(widths)}`).toBeLessThanOrEqual(widths.viewport);
  expect(widths.body, name).toBeLessThanOrEqual(widths.viewport);
  const cut = await page.evaluate(() =>
    [...document.querySelectorAll('h1, h2, .ant-card-head-title')]
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent),
  );
  expect(cut, `${name}: cut titles`).toEqual([]);
  // The section title in the header wraps onto its own row, whole.
  const title = page.getByTestId('section-title');
  await expect.poll(() => title.isVisible()).toBe(true);
  const box = await title.boundingBox();
  expect(box && box.x + box.width, name).toBeLessThanOrEqual(PHONE.width);
}

async function inViewport(locator: ReturnType<Page['locator']>) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  if (!box) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
}

describe('the console on a phone (390×844)', () => {
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: PHONE, colorScheme: 'light', isMobile: true, hasTouch: true });
    // A loaded machine (several test runs at once) is slow to answer: wait longer than the default.
    page.setDefaultTimeout(60_000);
    page.setDefaultNavigationTimeout(120_000);
    errors = collectPageErrors(page);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill('admin@lampyr.local');
    await page.getByLabel('Password', { exact: true }).fill('lampyr-admin');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/`);
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
  }, 300_000);

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await screenshot(page, `phone-failed-${context.task.name.replace(/\W+/g, '-').slice(0, 60)}`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('has no side bar on a phone, only the drawer behind the menu button', async () => {
    await settle();
    expect(await page.locator('.ant-layout-sider').count()).toBe(0);
    await expectFitsThePhone('home');
    await screenshot(page, 'phone-01-home');
  });

  it('dashboard: chosen from the drawer, which closes; fits the phone', async () => {
    await page.locator('header').getByRole('button', { name: 'Expand the menu' }).click();
    await page.locator('.ant-drawer-content-wrapper').waitFor({ state: 'visible' });
    await page.waitForTimeout(400);
    await screenshot(page, 'phone-02-menu-drawer');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.locator('.ant-drawer-content-wrapper').waitFor({ state: 'hidden' });
    await navigate('Dashboards', 'Dashboard', /\/dashboards\/dashboards$/);
    await settle();
    await expectFitsThePhone('dashboard');
    await screenshot(page, 'phone-03-dashboard');
  });

  it('map: its status chips wrap, the map fits', async () => {
    await navigate('Assets and Devices', 'Map', /\/assets-devices\/map$/);
    await settle();
    await page.locator('.device-map').waitFor({ state: 'visible' });
    await expectFitsThePhone('map');
    const chips = page.locator('main .ant-segmented').first();
    if (await chips.count()) {
      const box = await chips.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    await screenshot(page, 'phone-04-map');
  });

  it('device details: fits the phone', async () => {
    await navigate('Assets and Devices', 'Device Details', /\/assets-devices\/device-details/);
    await page.goto(`${server.url}/assets-devices/device-details?id=${deviceId}`);
    await settle();
    await expect.poll(() => page.getByTestId('live-state').isVisible()).toBe(true);
    await expectFitsThePhone('device details');
    await screenshot(page, 'phone-05-device-details');
  });

  it('live control: the table scrolls with the device name fixed, the Lamp and Dim columns and every command reachable', async () => {
    await navigate('Assets and Devices', 'Live Control', /\/assets-devices\/channel-write-values$/);
    await settle();
    await expectFitsThePhone('live control');
    const card = page.locator('main .ant-card').first();
    const table = card.locator('.ant-table-wrapper').first();
    await expect.poll(() => table.locator('.ant-table-tbody tr.ant-table-row').count()).toBeGreaterThan(0);
    // The table is wider than the phone: it scrolls inside the card, not the page.
    const scroller = table.locator('.ant-table-content, .ant-table-body').first();
    const widths = await scroller.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(widths.scroll).toBeGreaterThan(widths.client);
    const firstRow = table.locator('.ant-table-tbody tr.ant-table-row').first();
    const name = firstRow.locator('td.ant-table-cell-fix-left, td.ant-table-cell-fix-start').last();
    await expect.poll(() => name.textContent()).toMatch(/\S/);
    const nameBefore = await name.boundingBox();
    await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await page.waitForTimeout(300);
    for (const column of [/^Lamp/, /^Dim/]) {
      const header = table.locator('thead th', { hasText: column }).first();
      await inViewport(header);
    }
    // The key column stayed where it was while the others scrolled under it.
    const nameAfter = await name.boundingBox();
    expect(nameAfter?.x).toBeCloseTo(nameBefore?.x ?? -1, 0);
    await screenshot(page, 'phone-06-live-control-scrolled');
    await scroller.evaluate((el) => el.scrollTo({ left: 0 }));

    await firstRow.locator('input[type="checkbox"]').check();
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toMatch(/^1 /);
    const commands = card.locator('button', { hasText: /^(On|Off|Dim to)/ });
    expect(await commands.count()).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < (await commands.count()); i++) {
      const button = commands.nth(i);
      await inViewport(button);
      expect(await button.isEnabled()).toBe(true);
    }
    // Clickable on a phone: the confirmation opens, inside the screen; cancelled here.
    const dim = card.locator('button', { hasText: /^Dim to/ }).first();
    await dim.click();
    const confirm = page.locator('.ant-popover:visible, .ant-popconfirm:visible').first();
    await confirm.waitFor({ state: 'visible' });
    await inViewport(confirm.getByRole('button', { name: 'Cancel' }));
    await screenshot(page, 'phone-07-live-control-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expectFitsThePhone('live control, a device selected');
    await screenshot(page, 'phone-08-live-control');
  });

  it('in Turkish and dark the same four screens fit the phone', async () => {
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: 'Türkçe' }).click();
    await page.getByTestId('theme-switch').click();
    const screens: [string, string][] = [
      ['dashboards/dashboards', 'dashboard'],
      ['assets-devices/map', 'map'],
      [`assets-devices/device-details?id=${deviceId}`, 'device-details'],
      ['assets-devices/channel-write-values', 'live-control'],
    ];
    for (const [path, name] of screens) {
      await page.goto(`${server.url}/${path}`);
      await settle();
      await expectFitsThePhone(`${name} (tr, dark)`);
      await screenshot(page, `phone-09-${name}-tr-dark`);
    }
    await page.locator('header').getByRole('button').first().click();
    await page.locator('.ant-drawer-content-wrapper').waitFor({ state: 'visible' });
    await page.waitForTimeout(400);
    await screenshot(page, 'phone-10-menu-drawer-tr-dark');
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  });

  it('on a desktop the side menu stays in place, with its own scroll, on a long scrolled page', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server.url}/assets-devices/channel-write-values`);
    await settle();
    expect(await page.locator('.ant-drawer-open').count()).toBe(0);
    const menu = page.getByTestId('side-menu-scroll');
    await menu.waitFor({ state: 'visible' });
    const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(pageHeight).toBeGreaterThan(900);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(300);
    const box = await menu.boundingBox();
    expect(box?.y).toBeCloseTo(0, 0);
    expect(box?.height).toBeCloseTo(900, 0);
    // Its own scroll: the menu's last entries are reached by scrolling the menu, not the page.
    const own = await menu.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
      return { scrollTop: el.scrollTop, overflow: getComputedStyle(el).overflowY };
    });
    expect(own.overflow).toBe('auto');
    // The bar's colour runs down the whole page, even in a full-page picture.
    const bar = await page.locator('.ant-layout-sider').evaluate((el) => el.getBoundingClientRect().height);
    expect(bar).toBeGreaterThanOrEqual(pageHeight - 1);
    // What the operator sees (a full-page picture would draw the sticky parts at the scroll offset).
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.screenshot({ path: join(SHOTS_DIR, 'phone-11-desktop-live-control-scrolled.png') });
  });
});
