import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ReportFormat } from '@lampyr/contract';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { neutralise } from '../api/transfer-rows.ts';
import type { DocumentChart, DocumentColumn, ReportDocument } from './report-document.ts';

/**
 * The one export of every report: a ReportDocument written as CSV, XLSX or PDF. Column labels are
 * the document's (translated); the PDF draws the chart with vector primitives and the table under it,
 * numbers formatted for the document's language.
 */
export async function exportReport(doc: ReportDocument, format: ReportFormat): Promise<ExportedFile> {
  const base = `${doc.kind}-report-${doc.subtitle.replace(/[^0-9-]+/g, '_').replace(/^_+|_+$/g, '')}`;
  if (format === 'csv') return { filename: `${base}.csv`, contentType: REPORT_MIME.csv, content: toCsv(doc) };
  if (format === 'xlsx') return { filename: `${base}.xlsx`, contentType: REPORT_MIME.xlsx, content: await toXlsx(doc) };
  return { filename: `${base}.pdf`, contentType: REPORT_MIME.pdf, content: await toPdf(doc) };
}

export interface ExportedFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

export const REPORT_MIME: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

// ─── CSV ────────────────────────────────────────────────────────────────────

const csvField = (value: string | number | null): string => {
  if (value === null) return '';
  const text = typeof value === 'number' ? String(round(value)) : neutralise(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Header of translated labels, one line per group, the totals last; a BOM so spreadsheets read it as UTF-8. */
function toCsv(doc: ReportDocument): Buffer {
  const lines = [doc.columns.map((c) => csvField(c.label)).join(',')];
  for (const row of [...doc.rows, doc.totals])
    lines.push(doc.columns.map((c) => csvField(row[c.key] ?? null)).join(','));
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

// ─── XLSX ───────────────────────────────────────────────────────────────────

const XLSX_FORMATS: Record<DocumentColumn['kind'], string | undefined> = {
  text: undefined,
  int: '#,##0',
  number: '#,##0.0',
  percent: '0.0"%"',
  money: '#,##0.00',
};

/** Sheet one: title, period, the table with labels and totals; sheet two: the chart's figures. */
async function toXlsx(doc: ReportDocument): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.created = doc.generatedAt;
  const sheet = workbook.addWorksheet(doc.title.slice(0, 31));
  sheet.addRow([doc.title]).font = { bold: true, size: 14 };
  sheet.addRow([doc.subtitle]);
  sheet.addRow([]);
  const header = sheet.addRow(doc.columns.map((c) => c.label));
  header.font = { bold: true };
  const cell = (v: string | number | null) => (typeof v === 'string' ? neutralise(v) : v);
  for (const row of doc.rows) sheet.addRow(doc.columns.map((c) => cell(row[c.key] ?? null)));
  sheet.addRow(doc.columns.map((c) => cell(doc.totals[c.key] ?? null))).font = { bold: true };
  doc.columns.forEach((c, i) => {
    const column = sheet.getColumn(i + 1);
    column.width = i === 0 ? 28 : Math.max(12, Math.min(30, c.label.length + 2));
    const numFmt = XLSX_FORMATS[c.kind];
    if (numFmt) column.numFmt = numFmt;
  });
  const chart = doc.chart;
  if (chart) {
    const data = workbook.addWorksheet(chart.title.slice(0, 31).replace(/[\\/*?:[\]]/g, ' '));
    data.addRow(['', ...chart.series.map((s) => s.name)]).font = { bold: true };
    chart.categories.forEach((category, i) => {
      data.addRow([neutralise(category), ...chart.series.map((s) => s.values[i] ?? null)]);
    });
    data.getColumn(1).width = 24;
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// ─── PDF ────────────────────────────────────────────────────────────────────

const require = createRequire(import.meta.url);
const FONT_DIR = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
/** DejaVu Sans: every Turkish letter (ğ ı İ ş), which the PDF base fonts lack. */
const FONT = join(FONT_DIR, 'DejaVuSans.ttf');
const FONT_BOLD = join(FONT_DIR, 'DejaVuSans-Bold.ttf');

const PALETTE = ['#1677ff', '#fa8c16', '#52c41a', '#8c8c8c', '#eb2f96'];
const LEVEL_COLOURS = ['#cf1322', '#fa8c16', '#fadb14', '#8c8c8c'];
const MARGIN = 36;

/** A4 landscape: title, period, the chart drawn as vectors, then the table (its header repeated on each page). */
function toPdf(doc: ReportDocument): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: doc.title, Subject: doc.subtitle, Creator: 'Lampyr' },
    lang: doc.language,
  });
  pdf.registerFont('body', FONT);
  pdf.registerFont('bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const fmt = formatters(doc);

  pdf.font('bold').fontSize(16).fillColor('#000').text(doc.title);
  pdf.font('body').fontSize(10).fillColor('#444').text(doc.subtitle);
  pdf.text(fmt.generated);
  pdf.moveDown(0.5);
  if (doc.chart?.categories.length) drawChart(pdf, doc.chart, fmt.number, doc.kind === 'alarms');
  drawTable(pdf, doc, fmt.cell);

  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    pdf
      .font('body')
      .fontSize(8)
      .fillColor('#888')
      .text(`${doc.title} · ${fmt.page(i + 1)}`, MARGIN, pdf.page.height - MARGIN + 8, {
        width: pdf.page.width - 2 * MARGIN,
        align: 'right',
        lineBreak: false,
      });
  }
  pdf.end();
  return done;
}

function formatters(doc: ReportDocument) {
  const lng = doc.language;
  const number = new Intl.NumberFormat(lng, { maximumFractionDigits: 1 });
  const int = new Intl.NumberFormat(lng, { maximumFractionDigits: 0 });
  const percent = new Intl.NumberFormat(lng, { style: 'percent', maximumFractionDigits: 1 });
  const money = doc.currency
    ? new Intl.NumberFormat(lng, { style: 'currency', currency: doc.currency })
    : new Intl.NumberFormat(lng, { maximumFractionDigits: 2 });
  const dateTime = new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short', timeZone: doc.timeZone });
  const cell = (column: DocumentColumn, value: string | number | null | undefined): string => {
    if (value === null || value === undefined) return '—';
    if (typeof value === 'string') return value;
    if (column.kind === 'int') return int.format(value);
    if (column.kind === 'percent') return percent.format(value / 100);
    if (column.kind === 'money') return money.format(value);
    return number.format(value);
  };
  const generatedLabel = { en: 'Generated', tr: 'Oluşturulma' }[lng];
  const pageLabel = { en: 'Page', tr: 'Sayfa' }[lng];
  return {
    cell,
    number: (v: number) => number.format(v),
    generated: `${generatedLabel}: ${dateTime.format(doc.generatedAt)} (${doc.timeZone})`,
    page: (n: number) => `${pageLabel} ${n}`,
  };
}

/** Bars (side by side, or stacked) and lines over them, with a value axis, category labels and a legend. */
function drawChart(pdf: PDFKit.PDFDocument, chart: DocumentChart, format: (v: number) => string, levels: boolean) {
  const left = MARGIN + 48;
  const width = pdf.page.width - MARGIN - left;
  const top = pdf.y + 34;
  const height = 170;
  const bottom = top + height;
  const colours = levels ? LEVEL_COLOURS : PALETTE;
  pdf.font('bold').fontSize(11).fillColor('#000').text(chart.title, MARGIN, pdf.y);
  // Legend
  let lx = MARGIN;
  const ly = pdf.y + 4;
  chart.series.forEach((s, i) => {
    const colour = colours[i % colours.length] as string;
    if (s.type === 'bar') pdf.rect(lx, ly + 1, 10, 8).fill(colour);
    else
      pdf
        .moveTo(lx, ly + 5)
        .lineTo(lx + 10, ly + 5)
        .lineWidth(2)
        .stroke(colour);
    pdf
      .font('body')
      .fontSize(8)
      .fillColor('#333')
      .text(s.name, lx + 14, ly, { lineBreak: false });
    lx += 24 + pdf.widthOfString(s.name);
  });

  const n = chart.categories.length;
  const bars = chart.series.filter((s) => s.type === 'bar');
  let max = 0;
  for (let i = 0; i < n; i++) {
    if (chart.stacked)
      max = Math.max(
        max,
        bars.reduce((sum, s) => sum + Math.max(0, s.values[i] ?? 0), 0),
      );
    for (const s of chart.series) max = Math.max(max, s.values[i] ?? 0);
  }
  max = niceMax(max);
  const y = (v: number) => bottom - (Math.max(0, v) / max) * height;
  // Value axis and grid
  for (let k = 0; k <= 4; k++) {
    const v = (max * k) / 4;
    pdf
      .moveTo(left, y(v))
      .lineTo(left + width, y(v))
      .lineWidth(0.5)
      .stroke(k === 0 ? '#888' : '#ddd');
    pdf
      .font('body')
      .fontSize(7)
      .fillColor('#555')
      .text(format(v), MARGIN, y(v) - 4, { width: 44, align: 'right', lineBreak: false });
  }
  const slot = width / n;
  const barWidth = chart.stacked ? slot * 0.7 : (slot * 0.7) / Math.max(1, bars.length);
  for (let i = 0; i < n; i++) {
    let stackBase = 0;
    let b = 0;
    chart.series.forEach((s, si) => {
      if (s.type !== 'bar') return;
      const v = Math.max(0, s.values[i] ?? 0);
      const colour = colours[si % colours.length] as string;
      const x = left + i * slot + slot * 0.15 + (chart.stacked ? 0 : b * barWidth);
      if (v > 0) {
        const y0 = y(stackBase + (chart.stacked ? v : v));
        const y1 = chart.stacked ? y(stackBase) : bottom;
        pdf.rect(x, y0, barWidth, Math.max(0.5, y1 - y0)).fill(colour);
      }
      if (chart.stacked) stackBase += v;
      b++;
    });
  }
  chart.series.forEach((s, si) => {
    if (s.type !== 'line') return;
    const colour = colours[si % colours.length] as string;
    let started = false;
    for (let i = 0; i < n; i++) {
      const v = s.values[i];
      if (v === null || v === undefined) {
        started = false;
        continue;
      }
      const x = left + i * slot + slot / 2;
      if (started) pdf.lineTo(x, y(v));
      else pdf.moveTo(x, y(v));
      started = true;
    }
    pdf.lineWidth(1.5).stroke(colour);
  });
  // Category labels, thinned to fit
  const every = Math.max(1, Math.ceil(n / Math.floor(width / 48)));
  for (let i = 0; i < n; i += every) {
    const label = chart.categories[i] ?? '';
    pdf
      .font('body')
      .fontSize(7)
      .fillColor('#555')
      .text(label, left + i * slot + slot / 2 - 30, bottom + 3, {
        width: 60,
        align: 'center',
        lineBreak: false,
        height: 9,
        ellipsis: true,
      });
  }
  pdf.x = MARGIN;
  pdf.y = bottom + 20;
}

/** An axis top of four equal, round steps (1, 2, 2.5 or 5 × 10ⁿ) at or above `max`. */
function niceMax(max: number): number {
  if (max <= 0) return 4;
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  return step * 4;
}

/** The table: the group column wider, numbers right-aligned, zebra rows, totals in bold. */
function drawTable(
  pdf: PDFKit.PDFDocument,
  doc: ReportDocument,
  cell: (c: DocumentColumn, v: string | number | null | undefined) => string,
) {
  const width = pdf.page.width - 2 * MARGIN;
  const first = doc.columns.length > 1 ? Math.min(200, width * 0.28) : width;
  const rest = doc.columns.length > 1 ? (width - first) / (doc.columns.length - 1) : 0;
  const widths = doc.columns.map((_, i) => (i === 0 ? first : rest));
  const rowHeight = 14;
  const limit = () => pdf.page.height - MARGIN - rowHeight;

  const header = () => {
    pdf.font('bold').fontSize(7.5);
    const h =
      Math.max(...doc.columns.map((c, i) => pdf.heightOfString(c.label, { width: (widths[i] as number) - 6 }))) + 6;
    const top = pdf.y;
    pdf.rect(MARGIN, top, width, h).fill('#eef2f7');
    let x = MARGIN;
    doc.columns.forEach((c, i) => {
      const w = widths[i] as number;
      pdf.fillColor('#000').text(c.label, x + 3, top + 3, { width: w - 6, align: i === 0 ? 'left' : 'right' });
      x += w;
    });
    pdf.y = top + h;
  };
  const line = (row: Record<string, string | number | null>, bold: boolean, shade: boolean) => {
    if (pdf.y > limit()) {
      pdf.addPage();
      header();
    }
    const top = pdf.y;
    if (shade) pdf.rect(MARGIN, top, width, rowHeight).fill('#f7f7f7');
    if (bold)
      pdf
        .moveTo(MARGIN, top)
        .lineTo(MARGIN + width, top)
        .lineWidth(0.7)
        .stroke('#888');
    pdf
      .font(bold ? 'bold' : 'body')
      .fontSize(8)
      .fillColor('#000');
    let x = MARGIN;
    doc.columns.forEach((c, i) => {
      const w = widths[i] as number;
      pdf.text(cell(c, row[c.key]), x + 3, top + 3, {
        width: w - 6,
        align: i === 0 ? 'left' : 'right',
        lineBreak: false,
        height: rowHeight - 3,
        ellipsis: true,
      });
      x += w;
    });
    pdf.y = top + rowHeight;
  };
  if (pdf.y > limit() - 40) pdf.addPage();
  header();
  doc.rows.forEach((row, i) => {
    line(row, false, i % 2 === 1);
  });
  line(doc.totals, true, false);
}
