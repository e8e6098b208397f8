import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { chooseInDialog } from './browser.ts';

/** A query API call with the page's session and account, for ids and checks the test needs. */
export async function queryApi<T>(page: Page, path: string, body?: unknown): Promise<{ status: number; data: T }> {
  return page.evaluate(
    async ([p, b]) => {
      const response = await fetch(`/query/api/${p}`, {
        method: b === undefined ? 'GET' : 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${localStorage.getItem('authToken')}`,
          'X-Account-Id': String(JSON.parse(localStorage.getItem('selectedAccount') ?? '{}').id),
        },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      return { status: response.status, data: (await response.json()).data };
    },
    [path, body] as const,
  ) as Promise<{ status: number; data: T }>;
}

/** A page of a resource list, filtered. */
export const listOf = <T>(page: Page, prefix: string, filter: Record<string, unknown> | null, size = 10) =>
  queryApi<{ content: T[] }>(page, prefix, {
    filter,
    detailFilter: [],
    selectedColumns: null,
    pageable: { page: 1, size, sort: ['id,desc'] },
  });

/** The status a work order's row shows. */
export const workOrderStatus = (page: Page, id: number) =>
  page.locator(`tr[data-row-key="${id}"]`).getByTestId('work-order-status').textContent();

/** Takes one step of the work order with its button, fills the dialog and confirms it. */
export async function workOrderStep(
  page: Page,
  id: number,
  name: string,
  fill: (dialog: ReturnType<Page['getByRole']>) => Promise<void> = async () => {},
): Promise<void> {
  await page.getByTestId(`work-order-${id}-${name}`).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor({ state: 'visible' });
  await fill(dialog);
  await page.getByTestId('work-order-confirm').click();
  await dialog.waitFor({ state: 'hidden' });
}

export interface CrewWork {
  assignee: string;
  crew: string;
  work: string;
  resolution: string;
  partsUsed: string;
}

/**
 * Takes an open work order, shown in the work order table of the page, through its whole workflow
 * with the buttons each step offers: assign (to `assignee` and `crew`), plan, start, resolve (what
 * was done, the parts) and close; each status is checked as the table shows it. `shot` is called
 * once it is resolved (before closing), for a screenshot.
 */
export async function workThroughToClosed(
  page: Page,
  id: number,
  crewWork: CrewWork,
  shot: () => Promise<void> = async () => {},
): Promise<void> {
  await workOrderStep(page, id, 'assign', async (dialog) => {
    await chooseInDialog(page, 'Assignee', crewWork.assignee);
    await dialog.getByLabel('Crew').fill(crewWork.crew);
  });
  await expect.poll(() => workOrderStatus(page, id)).toBe('Assigned');
  await workOrderStep(page, id, 'plan', async (dialog) => {
    await dialog.getByLabel('Work').fill(crewWork.work);
  });
  await expect.poll(() => workOrderStatus(page, id)).toBe('Planned');
  await workOrderStep(page, id, 'start');
  await expect.poll(() => workOrderStatus(page, id)).toBe('In progress');
  await workOrderStep(page, id, 'resolve', async (dialog) => {
    await dialog.getByLabel('Resolution').fill(crewWork.resolution);
    await dialog.getByLabel('Parts used').fill(crewWork.partsUsed);
  });
  await expect.poll(() => workOrderStatus(page, id)).toBe('Resolved');
  await shot();
  await workOrderStep(page, id, 'close');
  await expect.poll(() => workOrderStatus(page, id)).toBe('Closed');
  // A closed work order offers only to be reopened.
  expect(await page.getByTestId(`work-order-${id}-reopen`).isVisible()).toBe(true);
  expect(await page.getByTestId(`work-order-${id}-assign`).count()).toBe(0);
}

/**
 * Fault History of `deviceId`, the work order `id` opened: its story is the report and the five
 * steps of the crew, in order. Resolves with the work order's details, for what a test checks more.
 */
export async function expectFaultHistory(page: Page, url: string, deviceId: number, id: number) {
  await page.goto(`${url}/maintenance-fault/fault-history?deviceId=${deviceId}`);
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
  return details;
}
