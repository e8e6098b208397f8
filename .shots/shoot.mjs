import { chromium } from 'playwright-core';
const base = process.env.BASE ?? 'http://127.0.0.1:4731';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const page = await ctx.newPage();
page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
page.on('console', (m) => { if (m.type() === 'error') console.log('CONSOLE', m.text()); });
await page.goto(`${base}/login`);
await page.getByLabel('Email').fill('admin@lampyr.local');
await page.getByLabel('Password', { exact: true }).fill(process.env.PASS ?? 'alarmui-admin-pass');
await page.getByRole('button', { name: 'Sign in' }).click();
await page.waitForURL(`${base}/`);
const label = await page.getByTestId('account-menu').textContent();
if (!label.includes('Kadıköy')) {
  await page.getByTestId('account-menu').click();
  const reloaded = page.waitForEvent('load');
  await page.getByRole('menuitem', { name: /Kadıköy/ }).click();
  await reloaded;
}
const out = process.env.OUT ?? '/tmp/alarmui';
for (const [path, name] of (process.env.PAGES ?? 'alerts-alarms/real-time:realtime,alerts-alarms/history:history,alerts-alarms/alert-notification-list:notifications').split(',').map((s) => s.split(':'))) {
  for (const [w, h] of [[1440, 900], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto(`${base}/${path}`);
    await page.waitForTimeout(2500);
    console.log(name, w, await page.locator('tbody tr.ant-table-row').count(), await page.getByTestId('live-state').textContent().catch(() => '-'));
    await page.screenshot({ path: `${out}/${name}-${w}.png`, fullPage: false });
  }
}
await browser.close();
