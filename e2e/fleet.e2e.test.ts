import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, chooseInDialog, screenshot, seriousViolations, signIn } from './support/browser.ts';
import { closeConsole, openConsole, screenshotIfFailed } from './support/console.ts';
import type { RunningServer } from './support/server.ts';

const suffix = Date.now().toString(36);
// DevEUIs are 16 hex digits: 4 fixed, 8 of this run, 4 of the row.
const euiOfRun = `e2e0${(Date.now() % 0xffffffff).toString(16).padStart(8, '0')}`;
const names = {
  type: `Bollard light ${suffix}`,
  model: `BL-1 ${suffix}`,
  template: `Lamp relay ${suffix}`,
  device: `KDK-BOLLARD-${suffix}`,
};

let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];

/** Picks an option of an antd select in the open dialog by typing part of its label. */
const choose = (label: string, text: string) => chooseInDialog(page, label, text);

/** Picks an option of a select that has no search (an enum), by its exact label. */
async function pick(label: string, text: string) {
  const dialog = page.getByRole('dialog');
  const item = dialog.locator('.ant-form-item').filter({ has: page.getByText(label, { exact: true }) });
  for (let attempt = 0; attempt < 3; attempt++) {
    await dialog.getByLabel(label, { exact: true }).click();
    const option = page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${text}"]`);
    await option.waitFor({ state: 'visible' });
    // The list slides in: a click during the animation can land beside the option.
    await page.waitForTimeout(300);
    await option.click();
    await page.waitForTimeout(200);
    if ((await item.locator('.ant-select').textContent())?.includes(text)) {
      await page.keyboard.press('Tab');
      return;
    }
    await page.keyboard.press('Escape');
  }
  throw new Error(`Could not pick ${text} in ${label}`);
}

async function fill(values: Record<string, string>) {
  const dialog = page.getByRole('dialog');
  for (const [label, value] of Object.entries(values)) await dialog.getByLabel(label, { exact: true }).fill(value);
}

async function save() {
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
}

/** A call to the API with the page's session, for ids the test needs. */
async function api<T>(path: string, body: unknown): Promise<T> {
  return page.evaluate(
    async ([p, b]) => {
      const response = await fetch(`/query/api/${p}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${localStorage.getItem('authToken')}`,
          'X-Account-Id': String(JSON.parse(localStorage.getItem('selectedAccount') ?? '{}').id),
        },
        body: JSON.stringify(b),
      });
      return (await response.json()).data;
    },
    [path, body] as const,
  ) as Promise<T>;
}

/** 1,000 devices of a seeded model in a seeded region, three of them wrong in three ways. */
async function devicesWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('devices');
  // Field names and English and Turkish labels all name columns.
  sheet.addRow(['name', 'Device model', 'Bölge', 'serialNumber', 'DevEUI', 'Sleep time (minutes)']);
  for (let n = 1; n <= 1000; n++) {
    const id = String(n).padStart(4, '0');
    sheet.addRow([
      n === 10 ? '' : `IMP-${suffix}-${id}`,
      n === 500 ? 'No such model' : 'SLC-L1 LoRaWAN controller',
      'Moda',
      `IMP-${suffix}-${id}`,
      `${euiOfRun}${id}`,
      n === 900 ? 99 : 10,
    ]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('devices, import, live screens', () => {
  beforeAll(async () => {
    ({ server, browser, page, errors } = await openConsole(
      {},
      { viewport: { width: 1400, height: 900 }, acceptDownloads: true },
    ));
    await signIn(page, server.url);
  });

  afterEach((context) => screenshotIfFailed(page, 'fleet', context));

  afterAll(() => closeConsole({ browser, server }));

  it('creates a device type, a model, a channel template and a device through the console', async () => {
    // Device types, models and channel templates are shared: written from the integrator account.
    await page.goto(`${server.url}/assets-devices/devices-types`);
    await switchAccount('Lampyr Demo');
    await page.getByRole('button', { name: 'New Device type' }).click();
    await fill({ 'Type name (English)': names.type, 'Type name (Turkish)': `Bolard aydınlatma ${suffix}` });
    await pick('IoT', 'IoT');
    await save();

    await page.goto(`${server.url}/assets-devices/device-models`);
    await page.getByRole('button', { name: 'New Device model' }).click();
    await fill({ 'Model name': names.model, 'Parameter group code': 'BL' });
    await choose('Device type', names.type);
    await choose('Protocol', 'LoRaWAN');
    await save();

    await page.goto(`${server.url}/device-channels/device-channel-templates`);
    await page.getByRole('button', { name: 'New Device channel template' }).click();
    await fill({
      Name: names.template,
      'Channel order': '1',
      'Channel code': 'lamp',
      Unit: '-',
      Description: 'Relay of the bollard lamp',
      'Alert parameter code': 'LAMP',
      'MQTT package order': '1',
      'Data limit max': '1',
      'Data limit min': '0',
      'Data byte length': '1',
      'Data label': 'Lamp',
      Variables: 'k=1',
      Formula: 'x',
    });
    await choose('Device model', names.model);
    await pick('Channel type', 'Read and write');
    await pick('Data type', 'bool');
    await save();

    await page.goto(`${server.url}/assets-devices/devices`);
    await page.getByRole('button', { name: 'New Device', exact: true }).first().click();
    await fill({ Name: names.device, 'Sleep time (minutes)': '15' });
    await choose('Device model', names.model);
    await choose('Region', 'Beşiktaş Centre');
    await save();
    await page.getByLabel('Search Devices').fill(names.device);
    await page.getByLabel('Search Devices').press('Enter');
    const row = page.locator('.ant-table-tbody tr', { hasText: names.device });
    await expect.poll(() => row.textContent()).toContain(names.model);
    await screenshot(page, 'fleet-01-device-created');
  });

  it('exports the filtered list as CSV', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export as CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('devices.csv');
    const csv = readFileSync((await file.path()) as string, 'utf8');
    expect(csv.split('\n')[0]).toContain('name');
    expect(csv).toContain(names.device);
    expect(csv.trim().split('\n')).toHaveLength(2);
  });

  it('imports 1,000 devices from XLSX and reports the 3 refused rows with their reasons', async () => {
    await switchAccount('Kadıköy');
    await page.goto(`${server.url}/assets-devices/devices`);

    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Devices' });
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'devices.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await devicesWorkbook(),
    });
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const report = dialog.getByTestId('import-report');
    await report.waitFor({ state: 'visible', timeout: 120_000 });
    const statistic = (title: string) =>
      report.locator('.ant-statistic', { hasText: title }).locator('.ant-statistic-content').textContent();
    expect(await statistic('Rows')).toBe('1,000');
    expect(await statistic('Imported')).toBe('997');
    expect(await statistic('Refused')).toBe('3');
    const refused = await report.locator('.ant-table-tbody').textContent();
    expect(refused).toContain('Name is required');
    expect(refused).toMatch(/Device model: .*No such model|Device model: .+/);
    expect(refused).toContain('Sleep time (minutes)');
    for (const row of ['11', '501', '901'])
      await expect.poll(() => report.getByRole('cell', { name: row, exact: true }).count()).toBe(1);
    await screenshot(page, 'fleet-02-import-report');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await page.getByLabel('Search Devices').fill(`IMP-${suffix}`);
    await page.getByLabel('Search Devices').press('Enter');
    await expect.poll(() => page.locator('.ant-table-title, .ant-card h2').first().textContent()).toContain('(997)');
  });

  it('refuses a file with unknown columns and says which', async () => {
    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Devices' });
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'devices.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('name,colour\nX,green\n'),
    });
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('colour');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('shows a device live and sends it a dim command that the simulated device acknowledges', async () => {
    const devices = await api<{ content: { id: number }[] }>('devices', {
      filter: { name: 'KDK-CAFERAGA-0011' },
      pageable: { page: 1, size: 1, sort: [] },
    });
    const id = devices.content[0]?.id as number;
    await page.goto(`${server.url}/assets-devices/device-details?id=${id}`);
    await expect.poll(() => page.getByTestId('live-state').textContent()).toBe('Live');
    await expect.poll(() => page.getByTestId('channel-power').textContent()).toMatch(/\d+\s*W/);
    await expect
      .poll(() => page.locator('main').first().textContent())
      .toContain('SLC-L2 LoRaWAN controller with metering');
    await screenshot(page, 'fleet-03-device-details');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Live Control' }).click();
    await page.waitForURL(/channel-write-values\?deviceId=/);
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('1 device selected');
    await page.getByRole('spinbutton', { name: 'Dim level' }).fill('30');
    await page.getByRole('button', { name: 'Dim to 30 %' }).click();
    // The confirmation says what will happen to how many lights.
    await expect.poll(() => page.getByText('Dim to 30 %: 1 device').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('1 light will be dimmed to 30% now.').isVisible()).toBe(true);
    await screenshot(page, 'fleet-04-live-control-confirm');
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Send' }).click();
    const writes = page.locator('.ant-table-tbody').last();
    await expect.poll(() => writes.textContent()).toMatch(/Pending|Sent|Acknowledged/);
    // The server runs the simulated fleet: the device obeys and acknowledges, shown without a reload.
    await expect
      .poll(() => writes.locator('tr.ant-table-row').first().textContent(), { timeout: 60_000 })
      .toContain('Acknowledged');
    // The confirmation fades out; a half-transparent one would be judged for contrast.
    await page.locator('.ant-popconfirm').waitFor({ state: 'hidden' });
    await screenshot(page, 'fleet-05-live-control-acknowledged');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('charts channels of a device, at most 15 days', async () => {
    const url = page.url().replace(/channel-write-values\?deviceId=/, 'graphic?deviceId=');
    await page.goto(url);
    await expect.poll(() => page.getByText('Select max 15 days').isVisible()).toBe(true);
    await expect.poll(() => page.locator('.ant-select-selection-item', { hasText: 'Lamp state' }).count()).toBe(1);
    // The chart draws as soon as a device and its channels are chosen: no button to press.
    await expect.poll(() => page.locator('main canvas').count()).toBeGreaterThan(0);
    await screenshot(page, 'fleet-06-graphic');
  });

  it("names the integrator's administrator in Kadıköy: the logs say who, the users list marks the staff", async () => {
    // The dim command sent above from Kadıköy by the administrator, a member of the integrator.
    await page.goto(`${server.url}/logs/transaction-logs`);
    const rows = page.locator('tr.ant-table-row');
    await expect.poll(() => rows.first().textContent()).toBeTruthy();
    const writes = rows.filter({ hasText: 'Channel write values' });
    await expect.poll(() => writes.count()).toBeGreaterThan(0);
    expect(await writes.first().textContent()).toContain('Lampyr Administrator');
    expect(await page.locator('.ant-table-tbody').textContent()).not.toMatch(/Person #\d/);
    await screenshot(page, 'fleet-06d-transaction-log-names');
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${server.url}/users`);
    const admin = page.locator('tr.ant-table-row', { hasText: ADMIN.email });
    await expect.poll(() => admin.textContent()).toContain('Integrator staff');
    // Managed in the integrator's account: here it can be looked at, not edited or removed.
    await expect.poll(() => admin.getByRole('button', { name: /^View User/ }).count()).toBe(1);
    expect(await admin.getByRole('button', { name: /^(Edit|Delete) User/ }).count()).toBe(0);
    await screenshot(page, 'fleet-06e-users-integrator-staff');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('sums the fleet up on the dashboard and narrows it to one device type', async () => {
    await page.goto(url('dashboards/dashboards'));
    const devices = async () =>
      Number(
        (
          await page
            .locator('.ant-statistic', { hasText: 'Devices' })
            .locator('.ant-statistic-content-value')
            .textContent()
        )?.replace(/\D/g, ''),
      );
    await expect.poll(devices).toBeGreaterThan(0);
    const rows = page.locator('.ant-table-tbody tr.ant-table-row');
    const counts = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.children[1]?.textContent)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(await devices());
    await screenshot(page, 'fleet-06b-dashboard');
    expect(await seriousViolations(page)).toEqual([]);
    // Choosing a type (here by its row) narrows every count to it.
    await rows.last().click();
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(devices).toBe(counts.at(-1));
  });

  it('maps the devices by connection status and opens one from its marker', async () => {
    await page.goto(url('assets-devices/map'));
    const all = page.locator('.ant-segmented-item', { hasText: 'All (' });
    await expect.poll(async () => Number((await all.textContent())?.match(/\((\d+)\)/)?.[1])).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.leaflet-overlay-pane canvas').count()).toBe(1);
    await screenshot(page, 'fleet-06c-map');
    expect(await seriousViolations(page)).toEqual([]);
    // Markers are drawn on a canvas: find a painted one and click its centre.
    const canvas = page.locator('.leaflet-overlay-pane canvas');
    const point = await canvas.evaluate((c: HTMLCanvasElement) => {
      const { data, width } = c.getContext('2d')?.getImageData(0, 0, c.width, c.height) ?? { data: [], width: 0 };
      const scale = c.width / c.getBoundingClientRect().width;
      for (let i = 3; i < data.length; i += 4 * 7) {
        if ((data[i] as number) > 200) {
          const pixel = (i - 3) / 4;
          // The first painted pixel is a circle's top; its centre is a radius (6 px) below.
          return { x: (pixel % width) / scale, y: Math.floor(pixel / width) / scale + 6 };
        }
      }
      return undefined;
    });
    expect(point).toBeDefined();
    await canvas.click({ position: point as { x: number; y: number } });
    const popup = page.locator('.leaflet-popup-content');
    await expect.poll(() => popup.textContent()).toMatch(/Online|Offline|Not heard yet/);
    await popup.getByRole('link', { name: 'Open device details' }).click();
    await page.waitForURL(/device-details\?id=\d+/);
  });

  it('in Turkish and dark: device details, live control and the channel average chart', async () => {
    await page.goto(url('assets-devices/device-details?id=12'));
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: 'Türkçe' }).click();
    await page.getByTestId('theme-switch').click();
    await expect.poll(() => page.getByTestId('live-state').textContent()).toBe('Canlı');
    await screenshot(page, 'fleet-07-device-details-tr-dark');
    await page.goto(url('assets-devices/channel-write-values'));
    await expect.poll(() => page.getByText('Eşleşen').first().isVisible()).toBe(true);
    await screenshot(page, 'fleet-08-live-control-tr-dark');
    await page.goto(url('dashboards/charts'));
    await page.getByRole('button', { name: 'Grafiği göster' }).click();
    await expect.poll(() => page.locator('main canvas').count()).toBeGreaterThan(0);
    await screenshot(page, 'fleet-09-channel-average-tr-dark');
    await page.goto(url('dashboards/overview'));
    await page.getByRole('button', { name: 'Grafiği göster' }).click();
    await expect.poll(() => page.locator('main .ant-table-tbody').textContent()).toContain('Moda');
    await screenshot(page, 'fleet-10-average-overview-tr-dark');
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByTestId('theme-switch').click();
  });

  it('renews an expired access token silently: the operator keeps working', async () => {
    await page.goto(url('assets-devices/devices'));
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBeGreaterThan(0);
    // The access token has expired (or is unreadable): the refresh cookie brings a new one.
    await page.evaluate(() => localStorage.setItem('authToken', 'expired.token.value'));
    await page.evaluate(() => {
      history.pushState({}, '', '/device-topology/1');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect.poll(() => page.locator('.ant-tree').textContent()).toContain('KDK-CAFERAGA-0001');
    expect(page.url()).not.toMatch(/\/login/);
    const renewed = await page.evaluate(() => localStorage.getItem('authToken'));
    expect(renewed).toMatch(/^eyJ/);
    // No token ever reached the server's log, though live screens opened streams all along.
    expect(server.log()).toContain('/query/api/stream');
    expect(server.log()).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
  });

  it('when the session is revoked mid-session, logs out and brings the user back after signing in again', async () => {
    await page.goto(url('device-topology/1'));
    await expect.poll(() => page.locator('.ant-tree').textContent()).toContain('KDK-CAFERAGA-0001');
    await screenshot(page, 'fleet-11-topology');
    // Logged out from another tab or device: the token and the refresh cookie are both revoked.
    const status = await page.evaluate(async () => {
      const response = await fetch('/command/api/auth/logout', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('authToken')}` },
        body: '{}',
      });
      return response.status;
    });
    expect(status).toBe(200);
    await page.evaluate(() => {
      history.pushState({}, '', '/assets-devices/devices?from=expiry');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForURL(/\/login$/);
    await expect.poll(() => page.getByText('Your session has ended').isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('isAuthenticated'))).toBeNull();
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/assets-devices\/devices\?from=expiry$/);
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
  });
});

async function switchAccount(name: string) {
  await page.getByTestId('account-menu').click();
  const reloaded = page.waitForEvent('load');
  await page.getByRole('menuitem', { name: new RegExp(name) }).click();
  await reloaded;
  await expect.poll(() => page.getByTestId('account-menu').textContent()).toContain(name);
}

function url(path: string): string {
  return `${server.url}/${path}`;
}
