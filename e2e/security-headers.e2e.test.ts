import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, launchBrowser, screenshot } from './support/browser.ts';
import { type RunningServer, startServer } from './support/server.ts';

const ADMIN = { email: 'admin@lampyr.local', password: 'lampyr-admin' };

let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];

/** Every CSP violation the page reports, as the browser's own event (console text aside). */
const violations = (): Promise<string[]> =>
  page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);

describe('the built console under its Content-Security-Policy', () => {
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    errors = collectPageErrors(page);
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __csp: string[] }).__csp = seen;
      document.addEventListener('securitypolicyviolation', (e) =>
        seen.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
      );
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves the console with the policy', async () => {
    const response = await page.goto(`${server.url}/login`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain('img-src');
    expect(response?.headers()['x-frame-options']).toBe('DENY');
  });

  it('renders the sign-in page, signs in and draws the map without a violation', async () => {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').waitFor();
    // antd's CSS-in-JS styles (inline <style> elements) applied: the button has the theme's green.
    const signIn = page.getByRole('button', { name: 'Sign in' });
    await expect
      .poll(() => signIn.evaluate((el) => getComputedStyle(el).backgroundColor))
      .toMatch(/^rgb\(\d+, 1\d\d, \d+\)$/);
    await screenshot(page, 'csp-01-login');
    expect(await violations()).toEqual([]);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await signIn.click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto(`${server.url}/assets-devices/map`);
    await expect.poll(() => page.locator('.leaflet-overlay-pane canvas').count()).toBe(1);
    await expect.poll(() => page.locator('.leaflet-tile').count()).toBeGreaterThan(0);
    await screenshot(page, 'csp-02-map');
    expect(await violations()).toEqual([]);
    expect(errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });

  it('keeps the API documents working', async () => {
    await page.goto(`${server.url}/docs`);
    await expect.poll(() => page.locator('.swagger-ui').count()).toBeGreaterThan(0);
    await screenshot(page, 'csp-03-docs');
    expect(await violations()).toEqual([]);
  });
});
