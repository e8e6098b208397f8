import type { MqttClient } from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seriousViolations, signInToKadikoy } from './support/browser.ts';
import { closeConsole, openConsole, screenshotIfFailed } from './support/console.ts';
import { connectPublisher, lampyrMqttLogin } from './support/mqtt.ts';
import type { RunningServer } from './support/server.ts';

/**
 * Alarms in the console (DEVICES.md "Alarms"): a value over MQTT raises an alarm in the server's
 * engine, it appears on Real-time Alarms over the live stream without a reload, and the operator
 * acknowledges it there. The demo simulator is off, so the only values are the test's.
 */

const MQTT_LOGIN = lampyrMqttLogin();
const DEVICE_UID = 'kdk-ip-0003';
const suffix = Date.now().toString(36);
const TEMPLATE = `E2E over-temperature ${suffix}`;

let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];
let publisher: MqttClient;

/** A call to the API with the page's session and selected account. */
async function api<T>(api: 'query' | 'command', path: string, body: unknown): Promise<{ status: number; data: T }> {
  return page.evaluate(
    async ([kind, p, b]) => {
      const response = await fetch(`/${kind}/api/${p}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${localStorage.getItem('authToken')}`,
          'X-Account-Id': String(JSON.parse(localStorage.getItem('selectedAccount') ?? '{}').id),
        },
        body: JSON.stringify(b),
      });
      return { status: response.status, data: (await response.json()).data };
    },
    [api, path, body] as const,
  ) as Promise<{ status: number; data: T }>;
}

const list = (prefix: string, filter: Record<string, unknown>) =>
  api<{ content: Record<string, unknown>[] }>('query', prefix, {
    filter,
    detailFilter: [],
    selectedColumns: null,
    pageable: { page: 1, size: 10, sort: [] },
  });

/** The light's temperature: a channel the demo's own rules (voltage, power) do not watch. */
const sendTemperature = (value: number) =>
  publisher.publishAsync(`lampyr/${DEVICE_UID}/up`, JSON.stringify({ values: { temperature: value } }), { qos: 1 });

describe('alarms in the console', () => {
  beforeAll(async () => {
    ({ server, browser, page, errors } = await openConsole({
      SIMULATOR: 'off',
      MQTT_USERNAME: MQTT_LOGIN.username,
      MQTT_PASSWORD: MQTT_LOGIN.password,
    }));
    // Desktop notifications are allowed for the console, and each one shown is noted on the page.
    await page.context().grantPermissions(['notifications'], { origin: server.url });
    await page.addInitScript(() => {
      const Shown = window.Notification;
      const notes: { title: string; body?: string }[] = [];
      Object.assign(window, { e2eNotes: notes });
      window.Notification = class extends Shown {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          notes.push({ title, body: options?.body });
        }
      };
    });
    publisher = await connectPublisher(server, MQTT_LOGIN, 'alarms');
    // The IP lights are Kadıköy's (the account chosen at sign-in, unless another was).
    await signInToKadikoy(page, server.url);
  });

  afterEach((context) => screenshotIfFailed(page, 'alarms', context));

  afterAll(async () => {
    await publisher?.endAsync();
    await closeConsole({ browser, server });
  });

  it('shows an alarm raised on the server live on Real-time Alarms, and acknowledges it', async () => {
    // The rule: over 70 °C on the light's temperature channel is a high alarm, paired with the light.
    expect(await page.getByTestId('account-menu').textContent()).toContain('Kadıköy');
    const [device] = (await list('devices', { uid: DEVICE_UID })).data.content;
    expect(device).toBeDefined();
    const [temperature] = (
      await list('device-channel-templates', {
        deviceTypeModelId: device?.deviceTypeModelId,
        channelCode: 'temperature',
      })
    ).data.content;
    expect(temperature).toBeDefined();
    const template = await api<{ id: number }>('command', 'alert-device-parameter-templates', {
      name: TEMPLATE,
      condition: 'gt',
      value: 70,
      threshold: 5,
      unit: '°C',
      alertLevel: 'high',
      channelTemplateId: temperature?.id,
    });
    expect(template.status).toBe(201);
    const pairing = await api('command', 'alert-device-pairing', {
      alertTemplateId: template.data.id,
      deviceId: device?.id,
    });
    expect(pairing.status).toBe(201);

    await page.goto(`${server.url}/alerts-alarms/real-time`);
    await expect.poll(() => page.getByTestId('live-state').textContent()).toContain('Live');
    await expect.poll(() => page.getByText('No active alarms').isVisible()).toBe(true);
    // A mark on this document: it is still there after the alarm arrives, so nothing reloaded.
    await page.evaluate(() => {
      (window as unknown as { e2eMark: string }).e2eMark = 'same document';
    });
    // The operator asks for sound and a desktop notification on high alarms.
    await page.getByLabel('Sound and desktop notification for high alarms').click();
    await expect.poll(() => page.getByLabel('Sound and desktop notification for high alarms').isChecked()).toBe(true);

    await sendTemperature(40);
    // The engine reads new rules shortly after they change: the high value is sent until it counts.
    const row = page.locator('tr', { hasText: TEMPLATE });
    await expect
      .poll(
        async () => {
          if (!(await row.isVisible())) await sendTemperature(78);
          return row.isVisible();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(true);
    expect(await page.evaluate(() => (window as unknown as { e2eMark?: string }).e2eMark)).toBe('same document');
    await expect.poll(() => row.textContent()).toContain('78 °C');
    expect(await row.textContent()).toContain('High');
    expect(await row.textContent()).toContain('Active');
    const [alarm] = (await list('alert-logs', { templateId: template.data.id })).data.content;
    expect(alarm).toMatchObject({ state: 'active', value: 78, deviceId: device?.id });
    await screenshot(page, 'alarms-01-raised');
    expect(await seriousViolations(page)).toEqual([]);
    const notes = () => page.evaluate(() => (window as unknown as { e2eNotes: unknown[] }).e2eNotes);
    await expect.poll(notes).toEqual([{ title: 'High alarm', body: expect.stringContaining('78 °C') }]);

    await row.getByRole('button', { name: `Acknowledge alarm ${String(alarm?.id)}` }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('Acknowledge 1 alarm').isVisible()).toBe(true);
    await dialog.getByLabel('Comment').fill('Crew 4 on the way');
    await dialog.getByRole('button', { name: 'Acknowledge' }).click();
    await expect.poll(() => page.getByText('1 updated, 0 skipped').isVisible()).toBe(true);
    await expect.poll(() => row.textContent()).toContain('Acknowledged');
    const [acknowledged] = (await list('alert-logs', { templateId: template.data.id })).data.content;
    expect(acknowledged).toMatchObject({ state: 'acknowledged', comment: 'Crew 4 on the way' });
    expect(acknowledged?.acknowledgedBy).not.toBeNull();
    await screenshot(page, 'alarms-02-acknowledged');

    // A value back under the hysteresis band (70 − 5) clears it: it leaves the real-time list live.
    await sendTemperature(50);
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(0);
    const [cleared] = (await list('alert-logs', { templateId: template.data.id })).data.content;
    expect(cleared).toMatchObject({ state: 'cleared', clearReason: 'value' });
    expect(await page.evaluate(() => (window as unknown as { e2eMark?: string }).e2eMark)).toBe('same document');

    // Alarm History still has it, cleared.
    await page.goto(`${server.url}/alerts-alarms/history`);
    const history = page.locator('tr', { hasText: TEMPLATE });
    await expect.poll(() => history.textContent()).toContain('Cleared');
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
