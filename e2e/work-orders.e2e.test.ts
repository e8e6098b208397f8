import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, launchBrowser, screenshot, seriousViolations, signInToKadikoy } from './support/browser.ts';
import { type RunningServer, startServer } from './support/server.ts';
import { listOf, queryApi, workOrderStatus, workThroughToClosed } from './support/work-orders.ts';

/**
 * The maintenance workflow in the console: a person reports a fault with a photo on Report a Fault,
 * and its work order is assigned, planned, started, resolved and closed with the buttons each step
 * offers (each confirmed in a dialog); Fault History then tells its story.
 */

const ADMIN = { email: 'admin@lampyr.local', password: 'lampyr-admin' };
// A real 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];

describe('maintenance workflow in the console', () => {
  beforeAll(async () => {
    server = await startServer({ SIMULATOR: 'off' });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, colorScheme: 'light' });
    errors = collectPageErrors(page);
    await signInToKadikoy(page, server.url, ADMIN);
  });

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await screenshot(page, `failed-work-orders-${context.task.name.replace(/\W+/g, '-').slice(0, 60)}`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('reports a fault with a photo, then assigns, plans, starts, resolves and closes its work order', async () => {
    const [device] = (
      await queryApi<{ content: { id: number; name: string }[] }>(page, 'devices', {
        filter: null,
        detailFilter: [],
        selectedColumns: null,
        pageable: { page: 1, size: 1, sort: ['id,asc'] },
      })
    ).data.content;
    expect(device).toBeDefined();

    // Report a Fault, opened from the device (as device details link it).
    await page.goto(`${server.url}/maintenance-fault/report-a-fault?deviceId=${device?.id}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Report a fault', exact: true }).isVisible()).toBe(true);
    // The device's position fills the location.
    await expect.poll(() => page.getByLabel('Latitude').inputValue()).not.toBe('');
    await page.getByLabel('Fault type', { exact: true }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Lamp failure' }).click();
    await page.getByLabel('Description').fill('Lamp dark since Monday night');
    const dir = mkdtempSync(join(tmpdir(), 'lampyr-e2e-photo-'));
    writeFileSync(join(dir, 'lamp.png'), PNG);
    await page.locator('input[type=file]').setInputFiles(join(dir, 'lamp.png'));
    await expect.poll(() => page.getByText('lamp.png').isVisible()).toBe(true);
    await page.getByTestId('report-fault').click();
    const toast = page.getByText(/Fault reported: work order #\d+ is open\./);
    await expect.poll(() => toast.isVisible()).toBe(true);
    const id = Number(/#(\d+)/.exec((await toast.textContent()) ?? '')?.[1]);
    expect(id).toBeGreaterThan(0);
    await expect.poll(() => workOrderStatus(page, id)).toBe('Open');
    // Only the steps an open work order allows are offered.
    expect(await page.getByTestId(`work-order-${id}-assign`).isVisible()).toBe(true);
    expect(await page.getByTestId(`work-order-${id}-start`).count()).toBe(0);
    expect(await page.getByTestId(`work-order-${id}-close`).count()).toBe(0);
    await screenshot(page, 'work-orders-01-reported');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByText('All', { exact: true }).click();
    await workThroughToClosed(
      page,
      id,
      {
        assignee: 'Lampyr Administrator',
        crew: 'Night crew',
        work: 'Replace the LED driver',
        resolution: 'Driver replaced, lamp on',
        partsUsed: '1 × LED driver 60 W',
      },
      () => screenshot(page, 'work-orders-02-resolved'),
    );

    const order = await queryApi<Record<string, unknown>>(page, `report-a-fault/${id}`);
    expect(order.data).toMatchObject({
      status: 'closed',
      crew: 'Night crew',
      resolution: 'Driver replaced, lamp on',
      partsUsed: '1 × LED driver 60 W',
      hasPhoto: true,
    });
    const planned = await listOf<Record<string, unknown>>(page, 'maintenance-planning', { faultReportId: id }, 5);
    expect(planned.data.content).toMatchObject([{ work: 'Replace the LED driver', status: 'done' }]);

    // Fault History of the device tells the story, with the photo.
    await page.goto(`${server.url}/maintenance-fault/fault-history?deviceId=${device?.id}`);
    const row = page.locator(`tr[data-row-key="${id}"]`);
    await expect.poll(() => row.isVisible()).toBe(true);
    await row.locator('.ant-table-row-expand-icon').click();
    const details = page.getByTestId(`work-order-details-${id}`);
    await expect.poll(() => details.getByTestId('work-order-step').count()).toBe(6);
    expect(await details.getByTestId('work-order-step').allTextContents()).toEqual([
      expect.stringContaining('Reported'),
      expect.stringContaining('Assign'),
      expect.stringContaining('Plan'),
      expect.stringContaining('Start'),
      expect.stringContaining('Resolve'),
      expect.stringContaining('Close'),
    ]);
    await expect.poll(() => details.getByRole('img', { name: `Photo of fault #${id}` }).isVisible()).toBe(true);
    await screenshot(page, 'work-orders-03-history');
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
