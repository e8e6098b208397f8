import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, screenshot, seriousViolations, signIn } from './support/browser.ts';
import { closeConsole, openConsole, screenshotIfFailed } from './support/console.ts';
import { type RunningServer, readCode } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];

/** What the server says about the accounts, through the platform route the screen uses. */
async function platformAccounts(): Promise<{ name: string; isActive: boolean }[]> {
  return page.evaluate(async () => {
    const res = await fetch('/query/api/platform/accounts', {
      headers: { Authorization: `Bearer ${localStorage.getItem('authToken')}` },
    });
    return (await res.json()).data;
  });
}

describe('platform operators and people in the console', () => {
  beforeAll(async () => {
    ({ server, browser, page, errors } = await openConsole({}, { viewport: { width: 1400, height: 900 } }));
  });

  afterEach((context) => screenshotIfFailed(page, 'platform', context));

  afterAll(() => closeConsole({ browser, server }));

  it('shows the platform screen to the seeded operator, who deactivates and reactivates an account', async () => {
    await signIn(page, server.url);
    await page.goto(`${server.url}/system/platform`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('System / Platform');
    await expect
      .poll(() => page.getByRole('cell', { name: 'Üsküdar Municipality', exact: true }).isVisible())
      .toBe(true);
    await expect.poll(() => page.getByRole('menuitem', { name: 'Platform', exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('cell', { name: ADMIN.email, exact: true }).isVisible()).toBe(true);
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'platform-01-english-light');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('switch', { name: 'Active: Üsküdar Municipality' }).click();
    await expect.poll(() => page.getByText('Saved').first().isVisible()).toBe(true);
    await expect
      .poll(async () => (await platformAccounts()).find((a) => a.name === 'Üsküdar Municipality')?.isActive)
      .toBe(false);
    await page.getByRole('switch', { name: 'Active: Üsküdar Municipality' }).click();
    await expect
      .poll(async () => (await platformAccounts()).find((a) => a.name === 'Üsküdar Municipality')?.isActive)
      .toBe(true);

    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: 'Türkçe' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sistem / Platform');
    await page.getByTestId('theme-switch').click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await screenshot(page, 'platform-02-turkish-dark');
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('System / Platform');
    await screenshot(page, 'platform-03-english-dark');
    await page.getByTestId('theme-switch').click();
  });

  it('shows the account tree read-only in the account form', async () => {
    await page.goto(`${server.url}/system/account`);
    await page
      .getByRole('button', { name: /^Edit Account/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('Read-only here').first().isVisible()).toBe(true);
    await expect.poll(() => dialog.getByRole('switch', { name: 'Integrator' }).isDisabled()).toBe(true);
    await screenshot(page, 'platform-04-account-form');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('lets a registered user, who is no operator, change their e-mail with a code sent to the new address', async () => {
    const email = `pat.${Date.now().toString(36)}@example.org`;
    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.goto(`${server.url}/register`);
    await page.getByLabel('First name').fill('Pat');
    await page.getByLabel('Last name').fill('Kaya');
    await page.getByLabel('Phone number').fill('+90 555 000 0000');
    await page.getByLabel('Title').fill('Engineer');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('pat-pass-1234');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(/\/verifyotp\?email=/);
    await page.getByLabel('Verification code').fill(await readCode(server.dataDir, email));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/login$/);
    await signIn(page, server.url, { email, password: 'pat-pass-1234' });
    // No operator: no platform entry in the menu.
    await page.getByRole('menuitem', { name: 'System' }).click();
    await expect.poll(() => page.getByRole('menuitem', { name: 'Roles', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('menuitem', { name: 'Platform', exact: true }).count()).toBe(0);

    const newEmail = `pat.new.${Date.now().toString(36)}@example.org`;
    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: 'Change e-mail' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('New e-mail').fill(newEmail);
    await dialog.getByLabel('Your password').fill('pat-pass-1234');
    await screenshot(page, 'platform-05-change-email');
    await dialog.getByRole('button', { name: 'Send the code' }).click();
    await dialog.getByLabel('Code').fill(await readCode(server.dataDir, newEmail));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => dialog.getByText(`Your e-mail address is now ${newEmail}.`).isVisible()).toBe(true);
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    expect(errors).toEqual([]);
  });
});
