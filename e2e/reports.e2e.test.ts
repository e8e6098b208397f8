import { readFileSync } from 'node:fs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signIn } from './support/browser.ts';
import { closeConsole, openConsole, screenshotIfFailed } from './support/console.ts';
import type { RunningServer } from './support/server.ts';

/**
 * Reports in the console: the week's energy report exported as a PDF from the Savings screen — the
 * download arrives, is a PDF, and its text (read back with pdf.js) has the title, the period, the
 * column labels and the totals; the same in Turkish.
 */

let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];

async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const parts: string[] = [];
  for (let p = 1; p <= pdf.numPages; p++) {
    const content = await (await pdf.getPage(p)).getTextContent();
    parts.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
  }
  await pdf.destroy();
  return parts.join('\n').replace(/\s+/g, ' ');
}

const day = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

describe('reports in the console', () => {
  beforeAll(async () => {
    ({ server, browser, page, errors } = await openConsole(
      { SIMULATOR: 'off' },
      { viewport: { width: 1440, height: 900 }, acceptDownloads: true },
    ));
    await signIn(page, server.url);
  });

  afterEach((context) => screenshotIfFailed(page, 'reports', context));

  afterAll(() => closeConsole({ browser, server }));

  it("exports the week's energy report from the Savings screen as a PDF with its chart and table", async () => {
    await page.goto(`${server.url}/reports-analytics/savings`);
    await expect.poll(() => page.getByRole('heading', { name: 'Energy savings' }).isVisible()).toBe(true);
    // The week: the period picker's "Last 7 days".
    await page.getByLabel('Period').first().click();
    await page.getByText('Last 7 days', { exact: true }).click();
    const today = new Date();
    const weekAgo = new Date(today.getTime() - 6 * 86_400_000);
    await expect.poll(() => page.getByLabel('Period').first().inputValue()).toBe(day(weekAgo));

    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export PDF' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe(`energy-report-${day(weekAgo)}_${day(today)}.pdf`);
    const bytes = readFileSync((await download.path()) as string);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(bytes);
    expect(text).toContain('Energy and savings report');
    expect(text).toContain(`Period: ${day(weekAgo)} – ${day(today)}`);
    expect(text).toContain('Energy and baseline (kWh)');
    for (const label of ['Region', 'Devices', 'Energy (kWh)', 'Baseline (kWh)', 'Saved (kWh)', 'Total'])
      expect(text).toContain(label);
    await screenshot(page, 'reports-savings-export');
  });

  it('writes the PDF in Turkish for a Turkish user, and shows the alarm and asset reports', async () => {
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: 'Türkçe' }).click();
    await page.goto(`${server.url}/reports-analytics/savings`);
    await expect.poll(() => page.getByRole('heading', { name: 'Enerji tasarrufu' }).isVisible()).toBe(true);
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'PDF dışa aktar' }).click();
    const text = await pdfText(readFileSync((await (await downloaded).path()) as string));
    expect(text).toContain('Enerji ve tasarruf raporu');
    expect(text).toContain('Bölge');
    expect(text).toContain('Toplam');

    await page.goto(`${server.url}/reports-analytics/alarms`);
    await expect.poll(() => page.getByRole('heading', { name: 'Alarm raporu' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Ortalama onaylama süresi').first().isVisible()).toBe(true);
    await page.goto(`${server.url}/reports-analytics/device-asset`);
    await expect.poll(() => page.getByRole('heading', { name: 'Cihaz ve varlık raporu' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('columnheader', { name: 'Çevrim içi (%)' }).isVisible()).toBe(true);
    await page.getByTestId('language-menu').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    expect(errors).toEqual([]);
  });
});
