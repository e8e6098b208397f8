import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import type { TestContext } from 'vitest';
import { collectPageErrors, launchBrowser, screenshot } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

/** One test file's console: the server, the browser and the page driving it, and the page's errors. */
export interface ConsoleRun {
  server: RunningServer;
  browser: Browser;
  page: Page;
  errors: string[];
}

/**
 * Starts Lampyr (with `env` added to its settings), Chromium, and a page in the light theme (or as
 * `options` say) whose errors are collected.
 */
export async function openConsole(
  env: NodeJS.ProcessEnv = {},
  options: BrowserContextOptions = { viewport: { width: 1440, height: 900 } },
): Promise<ConsoleRun> {
  const server = await startServer(env);
  const browser = await launchBrowser();
  const page = await browser.newPage({ colorScheme: 'light', ...options });
  return { server, browser, page, errors: collectPageErrors(page) };
}

/** Closes the browser and stops the server, whichever of them started. */
export async function closeConsole(run: { browser?: Browser; server?: RunningServer }): Promise<void> {
  await run.browser?.close();
  await run.server?.stop();
}

/** After a test: a screenshot of the page if it failed, `failed-<prefix>-<the test's name>`. */
export async function screenshotIfFailed(page: Page, prefix: string, context: TestContext): Promise<void> {
  if (context.task.result?.state === 'fail')
    await screenshot(page, `failed-${prefix}-${context.task.name.replace(/\W+/g, '-').slice(0, 60)}`);
}
