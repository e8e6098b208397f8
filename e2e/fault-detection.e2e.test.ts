import { devEuiOf } from '@lampyr/simulator/demo-fleet';
import type { MqttClient } from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seriousViolations, signInToKadikoy } from './support/browser.ts';
import { closeConsole, openConsole, screenshotIfFailed } from './support/console.ts';
import { connectPublisher, lampyrMqttLogin } from './support/mqtt.ts';
import type { RunningServer } from './support/server.ts';
import { expectFaultHistory, listOf, queryApi, workOrderStatus, workThroughToClosed } from './support/work-orders.ts';

/**
 * From a lamp that fails to a closed work order, end to end: the compiled server runs its simulated
 * fleet; an operator switches a light on in Live Control; the light's lamp dies (the simulator's
 * fault injection: it draws nothing while on); the fault engine sees < 20 % of the expected power
 * while commanded on, waits out its settling and persistence times and latches: a lamp-failure
 * alarm and a detected fault report, which is a work order the operator assigns, plans, starts,
 * resolves and closes in the console. The rules' times are shortened with FAULT_TIME_SCALE (0.02: a
 * 6 s settling and 12 s persistence instead of 5 and 10 min); everything else is as in service.
 */

// Lampyr's own broker login: only Lampyr may tell the simulator to break a light.
const MQTT_LOGIN = lampyrMqttLogin();
// A metered light of Caferağa (not one of the few lost in the field).
const DEV_EUI = devEuiOf(42);

let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];
let publisher: MqttClient;

interface Alarm {
  id: number;
  kind: string;
  state: string;
  alertLevel: string;
  value: number;
}
interface WorkOrder {
  id: number;
  status: string;
  source: string;
  ruleCode: string;
  faultType: string;
  alertLogId: number;
  reporter: string;
}

describe('a detected lamp failure becomes a work order, closed in the console', () => {
  beforeAll(async () => {
    ({ server, browser, page, errors } = await openConsole(
      {
        SIMULATOR: 'on',
        SIMULATOR_PERIOD_SECONDS: '3',
        FAULT_TIME_SCALE: '0.02',
        MQTT_USERNAME: MQTT_LOGIN.username,
        MQTT_PASSWORD: MQTT_LOGIN.password,
      },
      { viewport: { width: 1440, height: 1000 } },
    ));
    publisher = await connectPublisher(server, MQTT_LOGIN, 'faults');
    await signInToKadikoy(page, server.url);
  });

  afterEach((context) => screenshotIfFailed(page, 'fault-detection', context));

  afterAll(async () => {
    await publisher?.endAsync();
    await closeConsole({ browser, server });
  });

  it('detects the failure, raises the alarm, opens the work order, and the crew closes it', async () => {
    const [device] = (await listOf<{ id: number; name: string }>(page, 'devices', { devEui: DEV_EUI }, 1)).data.content;
    expect(device).toBeDefined();
    const deviceId = device?.id as number;

    // The operator switches the light on (whatever its schedule says at this hour) in Live Control.
    await page.goto(`${server.url}/assets-devices/channel-write-values?deviceId=${deviceId}`);
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('1 device selected');
    await page.getByRole('button', { name: /\bOn$/ }).click();
    await expect.poll(() => page.getByText('1 light will be switched on now.').isVisible()).toBe(true);
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Send' }).click();
    const writes = page.locator('.ant-table-tbody').last();
    await expect
      .poll(() => writes.locator('tr.ant-table-row').first().textContent(), { timeout: 60_000 })
      .toContain('Acknowledged');
    await page.locator('.ant-popconfirm').waitFor({ state: 'hidden' });
    // Burning as commanded: nothing to report.
    expect((await listOf<Alarm>(page, 'alert-logs', { deviceId, kind: 'lampFailure' })).data.content).toEqual([]);

    // Its lamp dies: the controller still says "on", its meter reads nothing.
    await publisher.publishAsync('simulator/fault', JSON.stringify({ device: DEV_EUI, fault: 'no_power' }), {
      qos: 1,
    });
    const alarms = () => listOf<Alarm>(page, 'alert-logs', { deviceId, kind: 'lampFailure' });
    await expect.poll(async () => (await alarms()).data.content.length, { timeout: 120_000, interval: 1000 }).toBe(1);
    const [alarm] = (await alarms()).data.content;
    expect(alarm).toMatchObject({ kind: 'lampFailure', alertLevel: 'high', state: 'active' });
    // Its value is the power drawn: under a fifth of the 120 W expected at level 100.
    expect(alarm?.value).toBeLessThan(24);

    // Real-time Alarms shows it.
    await page.goto(`${server.url}/alerts-alarms/real-time`);
    const alarmRow = page.locator(`tr[data-row-key="${alarm?.id}"]`);
    await expect.poll(() => alarmRow.isVisible()).toBe(true);
    await expect.poll(() => alarmRow.textContent()).toContain(device?.name as string);
    await screenshot(page, 'fault-detection-01-alarm');

    // The detected fault report is an open work order, tied to the alarm.
    const orders = await listOf<WorkOrder>(page, 'report-a-fault', { deviceId, ruleCode: 'lampFailure' });
    expect(orders.data.content).toHaveLength(1);
    const [order] = orders.data.content;
    expect(order).toMatchObject({
      status: 'open',
      source: 'detected',
      faultType: 'lamp_failure',
      alertLogId: alarm?.id,
    });
    const id = order?.id as number;

    // The crew's work, in the console, from the device's work orders.
    await page.goto(`${server.url}/maintenance-fault/report-a-fault?deviceId=${deviceId}`);
    await expect.poll(() => workOrderStatus(page, id)).toBe('Open');
    await screenshot(page, 'fault-detection-02-work-order-open');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByText('All', { exact: true }).click();
    await workThroughToClosed(
      page,
      id,
      {
        assignee: 'Lampyr Administrator',
        crew: 'Caferağa crew',
        work: 'Replace the dead lamp',
        resolution: 'Lamp module replaced, burning again',
        partsUsed: '1 × LED module 120 W',
      },
      () => screenshot(page, 'fault-detection-03-resolved'),
    );
    // The lamp is replaced: the light draws its power again.
    await publisher.publishAsync('simulator/fault', JSON.stringify({ device: DEV_EUI }), { qos: 1 });

    const closed = await queryApi<WorkOrder & { resolution: string; crew: string }>(page, `report-a-fault/${id}`);
    expect(closed.data).toMatchObject({
      status: 'closed',
      crew: 'Caferağa crew',
      resolution: 'Lamp module replaced, burning again',
    });
    // Fault History tells the story: detected by Lampyr, then each step of the crew.
    await expectFaultHistory(page, server.url, deviceId, id);
    await screenshot(page, 'fault-detection-04-history');
    expect(await seriousViolations(page)).toEqual([]);

    // With the lamp burning again the alarm clears by itself (the rule's clearing time).
    await expect
      .poll(async () => (await queryApi<Alarm>(page, `alert-logs/${alarm?.id}`)).data.state, {
        timeout: 120_000,
        interval: 1000,
      })
      .toBe('cleared');
    expect(errors).toEqual([]);
  });
});
