import { deflateRawSync, constants as zlib } from 'node:zlib';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { neutralise, unneutralise } from '../src/api/transfer-rows.ts';
import { Client, page, startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let api: Client;

beforeAll(async () => {
  t = await startTestApp();
  api = new Client(t.app);
  await api.login();
  api.accountId = t.seeded.subAccountIds[0];
});
afterAll(async () => {
  // The HTTP test's keep-alive connection would hold the server open.
  t.app.server.closeAllConnections();
  await t.close();
});

interface Part {
  name: string;
  /** Raw deflate data. */
  packed: Buffer;
  /** What the headers declare (a bomb may lie). */
  size: number;
}

/** A zip written by hand, so its headers can say whatever the attacker wants. */
function zip(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(part.packed.length, 18);
    local.writeUInt32LE(part.size, 22);
    local.writeUInt16LE(name.length, 26);
    chunks.push(local, name, part.packed);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(8, 10);
    record.writeUInt32LE(part.packed.length, 20);
    record.writeUInt32LE(part.size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offset, 42);
    central.push(record, name);
    offset += 30 + name.length + part.packed.length;
  }
  const size = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, ...central, end]);
}

const small = (name: string, text: string): Part => {
  const data = Buffer.from(text);
  return { name, packed: deflateRawSync(data), size: data.length };
};

/**
 * A worksheet that inflates to `copies` × 4 MB: the start of a sheet whose one cell's text then
 * runs on for gigabytes. Each piece is compressed once with a full flush (so it stands alone), the
 * 4 MB block repeated, then a final empty block: about 4 KB per 4 MB, the most deflate allows.
 */
function bombSheet(copies: number): { packed: Buffer; size: number } {
  const head = Buffer.from(
    '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>',
  );
  const block = Buffer.alloc(4 * 1024 * 1024, 'A');
  const flush = { level: 9, finishFlush: zlib.Z_FULL_FLUSH };
  const one = deflateRawSync(block, flush);
  const pieces = [
    deflateRawSync(head, flush),
    ...Array.from({ length: copies }, () => one),
    deflateRawSync(Buffer.alloc(0)),
  ];
  return { packed: Buffer.concat(pieces), size: head.length + copies * block.length };
}

function workbookParts(sheet: Part): Part[] {
  return [
    small(
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    ),
    small(
      'xl/workbook.xml',
      '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="a" sheetId="1"/></sheets></workbook>',
    ),
    sheet,
  ];
}

let logRowsDone = false;
/** 100,000 data log rows straight into the table (the API would take minutes to create them). */
async function logRows(): Promise<void> {
  if (logRowsDone) return;
  logRowsDone = true;
  const accountId = t.seeded.subAccountIds[0] as number;
  await t.database.db.execute(
    sql`insert into data_logs (account_id, topic, payload, reason)
        select ${accountId}, 'export/' || g, '{}', 'export_test' from generate_series(1, 100000) g`,
  );
}

async function deviceCount(): Promise<number> {
  return (await api.list('devices', { filter: {}, pageable: page(1, 1) })).body.data.totalElements;
}

/** Runs `call`, sampling this process's RSS every 10 ms; answers the peak growth and the time taken. */
async function measured<T>(call: () => Promise<T>): Promise<{ result: T; grewMb: number; ms: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const started = performance.now();
  try {
    const result = await call();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, grewMb: (peak - before) / 1024 / 1024, ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

const importFile = (fileName: string, content: Buffer) =>
  api.call('POST', '/command/api/devices/import', { fileName, content: content.toString('base64') });

describe('XLSX bombs are refused before parsing', () => {
  // 512 × 4 MB = 2 GB in about 2 MB of file.
  const bomb = bombSheet(512);

  it('a 2 MB XLSX whose sheet inflates to 2 GB (honest headers): 400 at once, memory bounded', async () => {
    const file = zip(workbookParts({ name: 'xl/worksheets/sheet1.xml', ...bomb }));
    expect(file.length).toBeLessThan(2.5 * 1024 * 1024);
    const before = await deviceCount();
    const { result: res, grewMb, ms } = await measured(() => importFile('bomb.xlsx', file));
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('BAD_REQUEST');
    expect(res.body.error?.message).toContain('too large');
    expect(res.body.error?.message).toContain('50 MB');
    expect(ms).toBeLessThan(3000);
    expect(grewMb).toBeLessThan(100);
    expect(await deviceCount()).toBe(before);
  });

  it('the same bomb with lying headers (declaring 40 MB, or 10 kB) is stopped while inflating', async () => {
    const before = await deviceCount();
    for (const declared of [40 * 1024 * 1024, 10_000]) {
      const file = zip(workbookParts({ name: 'xl/worksheets/sheet1.xml', packed: bomb.packed, size: declared }));
      const { result: res, grewMb, ms } = await measured(() => importFile('bomb.xlsx', file));
      expect(res.status).toBe(400);
      expect(res.body.error?.message).toContain('too large');
      expect(ms).toBeLessThan(3000);
      expect(grewMb).toBeLessThan(100);
    }
    expect(await deviceCount()).toBe(before);
  });

  it('refuses too many parts and too high a ratio, in Turkish too', async () => {
    const many = zip(Array.from({ length: 101 }, (_, i) => small(`xl/part${i}.xml`, '<a/>')));
    const res = await importFile('many.xlsx', many);
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toContain('100 parts');
    const zeros = Buffer.alloc(8 * 1024 * 1024);
    const dense = zip(
      workbookParts({ name: 'xl/worksheets/sheet1.xml', packed: deflateRawSync(zeros), size: zeros.length }),
    );
    api.language = 'tr';
    try {
      const tr = await importFile('dense.xlsx', dense);
      expect(tr.status).toBe(400);
      expect(tr.body.error?.message).toContain('çok büyük');
    } finally {
      api.language = undefined;
    }
  });

  it('refuses a zip whose data does not match its headers, and garbage, as unreadable', async () => {
    const sheet = small('xl/worksheets/sheet1.xml', '<worksheet/>');
    const shorter = zip(workbookParts({ ...sheet, size: sheet.size + 5 }));
    const res = await importFile('short.xlsx', shorter);
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toContain('not a readable XLSX file');
    const garbage = await importFile('x.xlsx', Buffer.from('PK\u0005\u0006 not really a zip'));
    expect(garbage.status).toBe(400);
  });
});

describe('rows are streamed and stop at the limit', () => {
  it('a CSV of 3,000,000 rows is refused at row 20,001 without reading it all', async () => {
    const csv = Buffer.from(`Name\n${'x\n'.repeat(3_000_000)}`);
    const before = await deviceCount();
    const { result: res, grewMb, ms } = await measured(() => importFile('huge.csv', csv));
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(
      'The file has more than 20000 rows. Split it into files of at most 20000 rows.',
    );
    expect(grewMb).toBeLessThan(100);
    expect(ms).toBeLessThan(10_000);
    expect(await deviceCount()).toBe(before);
  });

  it('an XLSX of 20,001 rows is refused before anything is written', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('devices');
    sheet.addRow(['Name', 'Serial number']);
    for (let i = 0; i < 20_001; i++) sheet.addRow([`ROW-${i}`, `SN-${i}`]);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const before = await deviceCount();
    const res = await importFile('many.xlsx', file);
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toContain('more than 20000 rows');
    expect(await deviceCount()).toBe(before);
  }, 60_000);
});

describe('one import or export at a time per user', () => {
  it('answers 429 to a second transfer while the first runs, and frees the slot when the client hangs up', async () => {
    await logRows();
    // Over real HTTP, so the first export can be left unread: it waits for room, holding its slot.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const controller = new AbortController();
    const response = await fetch(`${address}/query/api/data-logs/export`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${api.token}`,
        'x-account-id': String(api.accountId),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ filter: {}, format: 'csv', selectedColumns: { topic: true } }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    expect((await reader?.read())?.done).toBe(false);

    const second = await api.call('POST', '/query/api/regions/export', { filter: {}, format: 'csv' });
    expect(second.status).toBe(429);
    expect(second.body.error?.code).toBe('RATE_LIMITED');
    expect(second.body.error?.message).toBe(
      'One of your imports or exports is still running. Please wait until it has finished.',
    );
    api.language = 'tr';
    const csv = Buffer.from('Ad,Cihaz modeli,Bölge\nSLOT-1,SLC-IP1 IP controller,Caferağa\n');
    const importing = await importFile('slot.csv', csv);
    api.language = undefined;
    expect(importing.status).toBe(429);
    expect(importing.body.error?.message).toContain('sürüyor');
    const stored = await api.list('devices', { filter: { q: 'SLOT-' }, pageable: page(1, 1) });
    expect(stored.body.data.totalElements).toBe(0);

    // The client goes away mid-file: the export stops and its slot is free again.
    controller.abort();
    await reader?.cancel().catch(() => undefined);
    let after = await api.call('POST', '/query/api/regions/export', { filter: {}, format: 'csv' });
    for (let i = 0; i < 50 && after.status === 429; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await api.call('POST', '/query/api/regions/export', { filter: {}, format: 'csv' });
    }
    expect(after.status).toBe(200);
    const imported = await importFile('slot.csv', csv);
    expect(JSON.parse(imported.raw.trim().split('\n').at(-1) as string).report.imported).toBe(1);
  }, 120_000);

  it('frees the slot when a transfer fails', async () => {
    for (let i = 0; i < 3; i++) {
      const bad = await importFile('x.xlsx', Buffer.from('not a zip'));
      expect(bad.status).toBe(400);
      const unknown = await api.call('POST', '/query/api/regions/export', {
        filter: {},
        selectedColumns: { noSuchColumn: true },
        format: 'csv',
      });
      expect(unknown.status).toBe(400);
    }
    const ok = await api.call('POST', '/query/api/regions/export', { filter: {}, format: 'xlsx' });
    expect(ok.status).toBe(200);
  });
});

describe('formula injection', () => {
  const hostile = ['=HYPERLINK("http://evil","x")', "+1+cmd|' /C calc'!A0", '-2+3', '@SUM(1,1)', '\t=1', '\r=1'];
  let base: Record<string, unknown>;

  beforeAll(async () => {
    const moda = (await api.list('regions', { filter: { name: 'Moda' }, pageable: page(1, 1) })).body.data.content[0];
    base = { cityId: moda.cityId, stateId: moda.stateId, countryId: moda.countryId, address: 'INJECTION-TEST' };
  });

  async function createAll() {
    for (const [i, text] of hostile.entries()) {
      const res = await api.create('regions', { ...base, name: `INJ-${i}`, district: text, districtLatitude: -33.5 });
      expect(res.status).toBe(201);
    }
  }
  async function removeAll() {
    const list = await api.list('regions', { filter: { address: 'INJECTION-TEST' }, pageable: page(1, 50) });
    for (const r of list.body.data.content) expect((await api.remove('regions', r.id)).status).toBe(200);
  }
  async function stored() {
    const list = await api.list('regions', {
      filter: { address: 'INJECTION-TEST' },
      pageable: page(1, 50, ['name,asc']),
    });
    return list.body.data.content.map((r: Record<string, unknown>) => [r.name, r.district, r.districtLatitude]);
  }
  const columns = {
    name: true,
    district: true,
    districtLatitude: true,
    cityId: true,
    stateId: true,
    countryId: true,
    address: true,
  };
  const exportBody = (format: string) => ({
    filter: { address: 'INJECTION-TEST' },
    selectedColumns: columns,
    pageable: { page: 1, size: 10, sort: ['name,asc'] },
    format,
  });

  it('exports text starting with = + - @ tab or CR with a leading quote (CSV), numbers stay numbers, and imports back', async () => {
    await createAll();
    const original = await stored();
    expect(original).toHaveLength(hostile.length);
    const csv = await api.call('POST', '/query/api/regions/export', exportBody('csv'));
    expect(csv.status).toBe(200);
    expect(csv.raw).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csv.raw).toContain(`'@SUM(1,1)`);
    expect(csv.raw).toContain(`,'-2+3,-33.5,`);
    // Leading tab and CR are trimmed on save, so those two are stored as "=1" and exported quoted.
    expect(csv.raw).toContain(`,'=1,`);
    // No cell of the file starts with a formula character.
    for (const line of csv.raw.split('\n'))
      for (const cell of line.split(',')) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+@\t]/);
    await removeAll();
    const res = await api.call('POST', '/command/api/regions/import', {
      fileName: 'regions.csv',
      content: Buffer.from(csv.raw).toString('base64'),
    });
    expect(JSON.parse(res.raw.trim().split('\n').at(-1) as string).report).toMatchObject({
      total: hostile.length,
      imported: hostile.length,
    });
    expect(await stored()).toEqual(original);
  });

  it('does the same in XLSX: text cells with a quote, never formulas; numbers as numbers', async () => {
    const original = await stored();
    const res = await t.app.inject({
      method: 'POST',
      url: '/query/api/regions/export',
      headers: {
        authorization: `Bearer ${api.token}`,
        'x-account-id': String(api.accountId),
        'content-type': 'application/json',
      },
      payload: JSON.stringify(exportBody('xlsx')),
    });
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const district = header.indexOf('District') + 1;
    const latitude = header.indexOf('District latitude') + 1;
    const cells = [2, 3, 4, 5, 6, 7].map((r) => sheet.getRow(r).getCell(district));
    expect(cells.map((c) => c.type)).toEqual(Array(6).fill(ExcelJS.ValueType.String));
    expect(cells[0]?.value).toBe(`'=HYPERLINK("http://evil","x")`);
    expect(cells.every((c) => String(c.value).startsWith("'"))).toBe(true);
    expect(sheet.getRow(2).getCell(latitude).value).toBe(-33.5);
    await removeAll();
    const imported = await api.call('POST', '/command/api/regions/import', {
      fileName: 'regions.xlsx',
      content: (res.rawPayload as Buffer).toString('base64'),
    });
    expect(JSON.parse(imported.raw.trim().split('\n').at(-1) as string).report.imported).toBe(hostile.length);
    expect(await stored()).toEqual(original);
  });
});

describe('exports stream', () => {
  it('exports 100,000 rows page by page, every row once, memory bounded', async () => {
    await logRows();
    const { result: res, grewMb } = await measured(() =>
      api.call('POST', '/query/api/data-logs/export', { filter: {}, format: 'csv', selectedColumns: { topic: true } }),
    );
    expect(res.status).toBe(200);
    const lines = res.raw.trim().split('\n');
    expect(lines).toHaveLength(100_001);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(100_000);
    expect(grewMb).toBeLessThan(150);
  }, 120_000);
});

describe('neutralising cells', () => {
  it('quotes exactly the texts a spreadsheet would run, and the import undoes exactly that', () => {
    for (const text of ['=1+2', '+1', '-1', '@A1', '\t=1', '\r=1', '=HYPERLINK("http://evil","x")']) {
      expect(neutralise(text)).toBe(`'${text}`);
      expect(unneutralise(neutralise(text))).toBe(text);
    }
    for (const text of ['plain', "'quoted", 'a=b', ' =1', '']) {
      expect(neutralise(text)).toBe(text);
      expect(unneutralise(text)).toBe(text);
    }
  });
});
