import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, chooseInDialog, screenshot, seriousViolations } from './support/browser.ts';
import { closeConsole, openConsole, screenshotIfFailed } from './support/console.ts';
import { type RunningServer, readCode } from './support/server.ts';

const SESSION_KEYS = ['isAuthenticated', 'authToken', 'userData', 'selectedAccount', 'accounts', 'userId'];
const LIGHT_MENU = 'rgb(22, 50, 92)';
const DARK_MENU = 'rgb(20, 20, 20)';

let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];
const suffix = Date.now().toString(36);
const newUser = {
  firstName: 'Ada',
  lastName: 'Yıldız',
  phoneNumber: '+90 555 010 2030',
  title: 'Field engineer',
  email: `ada.${suffix}@example.org`,
  password: 'first-pass-123',
};

async function signIn(email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function storageKeys(): Promise<{ local: string[]; session: string[] }> {
  return page.evaluate(() => ({ local: Object.keys(localStorage), session: Object.keys(sessionStorage) }));
}

async function menuBackground(): Promise<string> {
  return page.getByTestId('side-menu').evaluate((el) => getComputedStyle(el).backgroundColor);
}

/** Picks an option of an antd select in the open dialog by typing part of its label. */
const choose = (label: string, text: string) => chooseInDialog(page, label, text);

async function expectNoSeriousViolations(name: string) {
  const violations = await seriousViolations(page);
  expect(violations, `${name}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
}

describe('Lampyr console in a real browser', () => {
  beforeAll(async () => {
    ({ server, browser, page, errors } = await openConsole({}, { viewport: { width: 1400, height: 900 } }));
  });

  afterEach((context) => screenshotIfFailed(page, 'console', context));

  afterAll(() => closeConsole({ browser, server }));

  it('registers, verifies the emailed code and signs the new user in', async () => {
    await page.goto(`${server.url}/register`);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.getByText('Please enter your first name!').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Please enter your email!').isVisible()).toBe(true);
    await page.getByLabel('First name').fill(newUser.firstName);
    await page.getByLabel('Last name').fill(newUser.lastName);
    await page.getByLabel('Phone number').fill(newUser.phoneNumber);
    await page.getByLabel('Title').fill(newUser.title);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill(newUser.password);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.getByText('Please enter a valid email!').isVisible()).toBe(true);
    await page.getByLabel('Email').fill(newUser.email);
    await screenshot(page, '01-register');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(/\/verifyotp\?email=/);

    const code = await readCode(server.dataDir, newUser.email);
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/login$/);
    await expect.poll(() => page.getByText('Your email is verified.').isVisible()).toBe(true);

    await signIn(newUser.email, newUser.password);
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome, Ada' }).isVisible()).toBe(true);
    // A verified new user has a personal account, selected automatically.
    await expect.poll(() => page.getByTestId('account-menu').textContent()).toContain('Ada Yıldız');
    await screenshot(page, '02-home-new-user');
  });

  it('changes the password from the account menu and resets a forgotten one with an emailed code', async () => {
    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: 'Change password' }).click();
    await page.waitForURL(/\/ChangePasword$/);
    await page.getByLabel('Current password').fill(newUser.password);
    await page.getByLabel('New password', { exact: true }).fill('second-pass-456');
    await page.getByLabel('Confirm the new password').fill('second-pass-456');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByText('Your password is changed.').isVisible()).toBe(true);

    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/\/login$/);

    const before = Date.now();
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email').fill(newUser.email);
    await dialog.getByRole('button', { name: 'Send the code' }).click();
    const code = await readCode(server.dataDir, newUser.email, before);
    await dialog.getByLabel('Verification code').fill(code);
    await dialog.getByLabel('New password', { exact: true }).fill('third-pass-789');
    await dialog.getByLabel('Confirm the new password').fill('third-pass-789');
    await dialog.getByRole('button', { name: 'Set the new password' }).click();
    await expect
      .poll(() => page.getByText('Your password is changed. Sign in with the new one.').isVisible())
      .toBe(true);
    await signIn(newUser.email, 'third-pass-789');
    await page.waitForURL(`${server.url}/`);
    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/\/login$/);
  });

  it('sends a signed-out visitor to /login and back to the requested page after sign-in', async () => {
    await page.goto(`${server.url}/system/regions?from=guard`);
    await page.waitForURL(/\/login$/);
    await expect.poll(() => page.getByText('Sign in').first().isVisible()).toBe(true);
    await screenshot(page, '03-login');
    await expectNoSeriousViolations('login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('Please enter your password!').isVisible()).toBe(true);
    await signIn(ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/system\/regions\?from=guard$/);
  });

  it('switches account: saved in both storages, page reloaded, data of the new account', async () => {
    const table = page.locator('.ant-table-tbody');
    await expect.poll(() => table.textContent()).toContain('Caferağa');
    expect(await page.getByTestId('account-menu').textContent()).toContain('Kadıköy');
    expect(await menuBackground()).toBe(LIGHT_MENU);
    await screenshot(page, '04-regions-kadikoy');

    await page.getByTestId('account-menu').click();
    await expect.poll(() => page.getByText('Accounts (3)').isVisible()).toBe(true);
    const reloaded = page.waitForEvent('load');
    // The integrator account: geography (shared reference data) is written from there.
    await page.getByRole('menuitem', { name: 'Lampyr Demo' }).click();
    await reloaded;
    await expect.poll(() => table.textContent()).toContain('Beşiktaş Centre');
    expect(await table.textContent()).not.toContain('Caferağa');
    expect(await page.getByTestId('account-menu').textContent()).toContain('Lampyr Demo');
    const stored = await page.evaluate(() => [
      localStorage.getItem('selectedAccount'),
      sessionStorage.getItem('selectedAccount'),
    ]);
    expect(stored.map((s) => JSON.parse(s ?? '{}').id)).toEqual([1, 1]);
    await screenshot(page, '05-regions-lampyr-demo');
  });

  it('creates a country, a state and a city through the generic screen, validation first', async () => {
    const country = `Atlantis ${suffix}`;
    const state = `Poseidonia ${suffix}`;
    const city = `Ammonia ${suffix}`;

    await page.goto(`${server.url}/system/countries`);
    await expect.poll(() => page.getByText('Türkiye').isVisible()).toBe(true);
    await expectNoSeriousViolations('countries list');
    await page.getByRole('button', { name: 'New Country' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByText('Name is required').isVisible()).toBe(true);
    await screenshot(page, '06-country-validation');
    await expectNoSeriousViolations('country form');
    await dialog.getByLabel('Name').fill(country);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.ant-table-tbody').textContent()).toContain(country);

    await page.goto(`${server.url}/system/states`);
    await page.getByRole('button', { name: 'New State' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill(state);
    await choose('Country', country);
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    await page.goto(`${server.url}/system/cities`);
    await page.getByRole('button', { name: 'New City' }).click();
    const cityDialog = page.getByRole('dialog');
    await cityDialog.getByLabel('Name').fill(city);
    // Country first: the state list narrows to the chosen country's (choosing a country clears a state of another).
    await choose('Country', country);
    await choose('State', state);
    await cityDialog.getByLabel('Latitude').fill('95');
    await cityDialog.getByLabel('Longitude').fill('25.1');
    await cityDialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => cityDialog.getByText('Latitude must be at most 90').isVisible()).toBe(true);
    await cityDialog.getByLabel('Latitude').fill('36.4');
    await cityDialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.getByLabel('Search Cities').fill(city);
    await page.getByLabel('Search Cities').press('Enter');
    const row = page.locator('.ant-table-tbody tr', { hasText: city });
    await expect.poll(() => row.textContent()).toContain(state);
    await expect.poll(() => row.textContent()).toContain(country);
    await screenshot(page, '07-city-created');
  });

  it('explains a 409 conflict when someone else changed the record meanwhile', async () => {
    await page.goto(`${server.url}/system/countries`);
    const row = page.locator('.ant-table-tbody tr', { hasText: 'Atlantis' });
    await row.getByRole('button', { name: /^Edit/ }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByLabel('Name').inputValue()).toContain('Atlantis');
    // Someone else renames it through the API while the form is open.
    await page.evaluate(async () => {
      const headers = {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${localStorage.getItem('authToken')}`,
        'X-Account-Id': String(JSON.parse(localStorage.getItem('selectedAccount') ?? '{}').id),
      };
      const list = await fetch('/query/api/countries', {
        method: 'POST',
        headers,
        body: JSON.stringify({ filter: { q: 'Atlantis' }, pageable: { page: 1, size: 1, sort: [] } }),
      }).then((r) => r.json());
      const record = list.data.content[0];
      const saved = await fetch('/command/api/countries', {
        method: 'PUT',
        headers,
        body: JSON.stringify({ id: record.id, name: `${record.name} (renamed)`, updatedAt: record.updatedAt }),
      });
      if (!saved.ok) throw new Error(`rename failed: ${saved.status} ${await saved.text()}`);
    });
    await dialog.getByLabel('Name').fill('My rename');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByText('Someone else changed this record').isVisible()).toBe(true);
    await screenshot(page, '08-conflict');
    await dialog.getByRole('button', { name: 'Load the latest version' }).click();
    await expect.poll(() => dialog.getByLabel('Name').inputValue()).toContain('(renamed)');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('asks before deleting and explains why a referenced record cannot go', async () => {
    const row = page.locator('.ant-table-tbody tr', { hasText: 'Atlantis' });
    await row.getByRole('button', { name: /^Delete/ }).click();
    await expect.poll(() => page.getByText('Are you sure to delete this country?').isVisible()).toBe(true);
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Delete' }).click();
    const refusal = page.locator('.ant-modal-confirm', { hasText: 'This Country cannot be deleted yet' });
    await expect.poll(() => refusal.textContent()).toContain('still used by');
    await screenshot(page, '09-delete-refused');
    await page.getByRole('button', { name: 'OK' }).click();
  });

  it('speaks Turkish and recolours the menu in the dark theme', async () => {
    await page.goto(`${server.url}/system/cities`);
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: 'Türkçe' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sistem / Şehirler');
    await expect.poll(() => page.getByText('Lampyr tarafından desteklenmektedir').isVisible()).toBe(true);
    await screenshot(page, '09-turkish-light');
    await page.getByRole('button', { name: 'Yeni Şehir' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Kaydet' }).click();
    await expect.poll(() => page.getByRole('dialog').getByText('Ad zorunludur').isVisible()).toBe(true);
    await page.getByRole('dialog').getByRole('button', { name: 'Vazgeç' }).click();

    const broadcast = page.evaluate(
      () =>
        new Promise<string>((resolve) =>
          window.addEventListener('themeChange', (e) => resolve(String((e as CustomEvent).detail)), { once: true }),
        ),
    );
    await page.getByTestId('theme-switch').click();
    expect(await broadcast).toBe('dark');
    await expect.poll(menuBackground).toBe(DARK_MENU);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await screenshot(page, '10-turkish-dark');
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('System / Cities');
    await screenshot(page, '11-english-dark');
    await page.goto(`${server.url}/login`);
    await screenshot(page, '12-login-dark');
    await page.goBack();
  });

  it('logs out: the server revokes the token, the session keys leave both storages and the guard holds', async () => {
    const token = await page.evaluate(() => localStorage.getItem('authToken'));
    await page.getByTestId('account-menu').click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/\/login$/);
    // The old token no longer works, even outside the browser.
    const me = await fetch(`${server.url}/query/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(401);
    const keys = await storageKeys();
    for (const key of SESSION_KEYS) {
      expect(keys.local).not.toContain(key);
      expect(keys.session).not.toContain(key);
    }
    expect(keys.local).toContain('theme');
    await page.goto(`${server.url}/system/cities`);
    await page.waitForURL(/\/login$/);
    expect(errors).toEqual([]);
  });
});
