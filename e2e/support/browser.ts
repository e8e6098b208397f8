import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { REPO_ROOT } from './server.ts';

export const SHOTS_DIR = join(REPO_ROOT, 'test-results', 'e2e');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

/** Errors the page reports, except a failed resource load (an API answering 4xx is expected). */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(`console: ${message.text()}`);
  });
  return errors;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page; returns its serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // antd fades new things in (upload list items, popconfirms, messages): checked mid-fade, a text
  // is half-transparent and fails contrast although it is fine at rest. Let running animations end.
  await page.waitForFunction(
    () =>
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    undefined,
    { timeout: 5000 },
  );
  // Evaluated rather than added as a <script>: the console's CSP rightly refuses inline scripts.
  await page.evaluate(readFileSync(join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Picks an option of an antd select in the page's open dialog by typing part of its label. */
export async function chooseInDialog(page: Page, label: string, text: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  const input = dialog.getByLabel(label, { exact: true });
  const item = dialog.locator('.ant-form-item').filter({ has: page.getByText(label, { exact: true }) });
  for (let attempt = 0; attempt < 3; attempt++) {
    await input.click();
    await input.fill(text);
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first();
    await option.waitFor({ state: 'visible' });
    await option.click();
    await page.keyboard.press('Tab');
    if ((await item.locator('.ant-select').textContent())?.includes(text)) return;
  }
  throw new Error(`Could not choose ${text} in ${label}`);
}

/** The administrator the server seeds (its default password: the e2e servers run embedded). */
export const ADMIN = { email: 'admin@lampyr.local', password: 'lampyr-admin' };

/** Signs in on the sign-in screen (the seeded administrator unless told) and waits for the home screen. */
export async function signIn(page: Page, url: string, user = ADMIN): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${url}/`);
}

/** Signs the seeded administrator in and works in the Kadıköy sub-account (the demo's lights). */
export async function signInToKadikoy(page: Page, url: string, admin = ADMIN): Promise<void> {
  await signIn(page, url, admin);
  if (!(await page.getByTestId('account-menu').textContent())?.includes('Kadıköy')) {
    await page.getByTestId('account-menu').click();
    const reloaded = page.waitForEvent('load');
    await page.getByRole('menuitem', { name: /Kadıköy/ }).click();
    await reloaded;
  }
}
