import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seriousViolations, signInToKadikoy } from './support/browser.ts';
import { closeConsole, openConsole, screenshotIfFailed } from './support/console.ts';
import type { RunningServer } from './support/server.ts';
import { expectFaultHistory, listOf, queryApi, workOrderStatus, workThroughToClosed } from './support/work-orders.ts';

/**
 * The maintenance workflow in the console: a person reports a fault with a photo on Report a Fault,
 * and its work order is assigned, planned, started, resolved and closed with the buttons each step
 * offers (each confirmed in a dialog); Fault History then tells its story.
 */

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
    ({ server, browser, page, errors } = await openConsole(
      { SIMULATOR: 'off' },
      { viewport: { width: 1440, height: 1000 } },
    ));
    await signInToKadikoy(page, server.url);
  });

  afterEach((context) => screenshotIfFailed(page, 'work-orders', context));

  afterAll(() => closeConsole({ browser, server }));

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
    const details = await expectFaultHistory(page, server.url, device?.id as number, id);
    await expect.poll(() => details.getByRole('img', { name: `Photo of fault #${id}` }).isVisible()).toBe(true);
    await screenshot(page, 'work-orders-03-history');
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
