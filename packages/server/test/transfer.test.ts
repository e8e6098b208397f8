import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, page, startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let api: Client;

beforeAll(async () => {
  t = await startTestApp();
  api = new Client(t.app);
  await api.login();
  api.accountId = t.seeded.subAccountIds[0];
}, 240_000);
afterAll(() => t.close());

async function xlsx(header: string[], rows: unknown[][]): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('devices');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
}

function lines(raw: string) {
  return raw
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('bulk import', () => {
  it('imports 1,000 devices from XLSX, refusing 3 bad rows with the reason for each', async () => {
    const header = [
      'Name',
      'deviceTypeModelId',
      'Region',
      'Serial number',
      'Sleep time (minutes)',
      'isActive',
      'Latitude',
      'Longitude',
    ];
    const rows = Array.from({ length: 1000 }, (_, i) => [
      `IMPORT-${String(i + 1).padStart(4, '0')}`,
      'SLC-L2 LoRaWAN controller with metering',
      'Moda',
      `IMP-${100000 + i}`,
      10,
      'yes',
      40.98 + i / 100000,
      29.02,
    ]);
    rows[9] = ['', 'SLC-L2 LoRaWAN controller with metering', 'Moda', 'IMP-bad-1', 10, 'yes', 40.98, 29.02]; // no name
    rows[499] = ['IMPORT-0500', 'No such model', 'Moda', 'IMP-bad-2', 10, 'yes', 40.98, 29.02]; // unknown model
    rows[998] = [
      'IMPORT-0999',
      'SLC-L2 LoRaWAN controller with metering',
      'Moda',
      'IMP-bad-3',
      90,
      'yes',
      40.98,
      29.02,
    ]; // sleep time
    const res = await api.call('POST', '/command/api/devices/import', {
      fileName: 'lights.xlsx',
      content: await xlsx(header, rows),
    });
    expect(res.status).toBe(200);
    const events = lines(res.raw);
    const progress = events.filter((e) => e.progress).map((e) => e.progress.done);
    expect(progress.at(-1)).toBe(1000);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const { report } = events.at(-1);
    expect(report.total).toBe(1000);
    expect(report.imported).toBe(997);
    expect(report.refused).toEqual([
      { row: 11, errors: { name: 'Name is required' } },
      { row: 501, errors: { deviceTypeModelId: 'Device model: the selected record does not exist' } },
      { row: 1000, errors: { sleepTime: 'Sleep time (minutes) must be at most 60' } },
    ]);
    const stored = await api.list('devices', { filter: { q: 'IMPORT-' }, pageable: page(1, 1) });
    expect(stored.body.data.totalElements).toBe(997);
  }, 120_000);

  it('imports CSV with Turkish headers and refuses unknown columns before writing anything', async () => {
    const csv = 'Ad,Cihaz modeli,Bölge\nCSV-1,SLC-IP1 IP controller,Caferağa\n';
    const ok = await api.call('POST', '/command/api/devices/import', {
      fileName: 'lights.csv',
      content: Buffer.from(csv).toString('base64'),
    });
    expect(lines(ok.raw).at(-1).report).toEqual({ total: 1, imported: 1, refused: [] });
    const bad = await api.call('POST', '/command/api/devices/import', {
      fileName: 'lights.csv',
      content: Buffer.from('Name,Colour of the sky\nX,blue\n').toString('base64'),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.code).toBe('INVALID_FIELD');
    expect(bad.body.error?.message).toContain('Colour of the sky');
    const garbage = await api.call('POST', '/command/api/devices/import', {
      fileName: 'x.xlsx',
      content: 'bm90IGEgemlw',
    });
    expect(garbage.status).toBe(400);
  });
});

describe('export', () => {
  it('exports the filtered list as CSV and XLSX, which read back', async () => {
    const csv = await api.call('POST', '/query/api/regions/export', { filter: { name: 'Moda' }, format: 'csv' });
    expect(csv.status).toBe(200);
    const [head, row] = csv.raw.trim().split('\n');
    // The screen's column labels, not the database's names.
    expect(head?.split(',')).toContain('Name');
    expect(head?.split(',')).toContain('City');
    expect(head).not.toMatch(/cityId|stateId/);
    expect(row).toContain('Moda');
    const res = await t.app.inject({
      method: 'POST',
      url: '/query/api/devices/export',
      headers: {
        authorization: `Bearer ${api.token}`,
        'x-account-id': String(api.accountId),
        'content-type': 'application/json',
      },
      payload: JSON.stringify({
        filter: { street: 'Moda Caddesi' },
        selectedColumns: { name: true, devEui: true },
        format: 'xlsx',
      }),
    });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.getRow(1).values).toEqual([undefined, 'ID', 'Name', 'DevEUI']);
    expect(sheet?.rowCount).toBe(26);
  });
});

describe('an export imports back', () => {
  /** A new sub-account of the integrator, with nothing in it yet. */
  async function freshAccount(name: string): Promise<number> {
    const owner = new Client(t.app);
    await owner.login();
    owner.accountId = t.seeded.integratorId;
    const made = await owner.create('accounts', { name });
    expect(made.status).toBe(201);
    return made.body.data.id as number;
  }

  /** Three lists of an account: references (regions' places), enums (a log level) and enums beside codes (LoRaWAN). */
  const RESOURCES = {
    regions: [
      'name',
      'district',
      'districtLatitude',
      'districtLongitude',
      'cityId',
      'stateId',
      'countryId',
      'address',
      'notes',
    ],
    'system-log-settings': ['name', 'level', 'retentionDays'],
    gatewaydeviceprofile: [
      'name',
      'region',
      'macVersion',
      'regParamsRevision',
      'supportsOtaa',
      'supportsClassB',
      'supportsClassC',
      'adrAlgorithmId',
    ],
  } as const;

  const recordsOf = async (resource: keyof typeof RESOURCES, accountId: number) => {
    const client = new Client(t.app);
    await client.login();
    client.accountId = accountId;
    const list = await client.list(resource, { filter: null, pageable: page(1, 500, ['name,asc']) });
    expect(list.status).toBe(200);
    return (list.body.data.content as Record<string, unknown>[]).map((r) =>
      Object.fromEntries(RESOURCES[resource].map((f) => [f, r[f]])),
    );
  };

  beforeAll(async () => {
    // Options of every kind: a log level and an ADR algorithm with labels, a region that is a code.
    const source = new Client(t.app);
    await source.login();
    source.accountId = t.seeded.subAccountIds[0];
    const warn = await source.create('system-log-settings', { name: 'Warnings', level: 'warn', retentionDays: 30 });
    expect(warn.status).toBe(201);
    const profile = await source.create('gatewaydeviceprofile', {
      name: 'LR-FHSS US915',
      region: 'US915',
      macVersion: 'LORAWAN_1_0_4',
      regParamsRevision: 'RP002_1_0_3',
      supportsOtaa: true,
      adrAlgorithmId: 'lr_fhss',
    });
    expect(profile.status, profile.raw).toBe(201);
  });

  for (const [format, language] of [
    ['csv', 'tr'],
    ['xlsx', 'en'],
  ] as const) {
    it(`${format.toUpperCase()} in ${language}: labels and names out, the same records in a fresh account`, async () => {
      const source = t.seeded.subAccountIds[0] as number;
      const target = await freshAccount(`Round trip ${format} ${Date.now()}`);
      for (const resource of Object.keys(RESOURCES) as (keyof typeof RESOURCES)[]) {
        const original = await recordsOf(resource, source);
        expect(original.length).toBeGreaterThan(0);
        const exporter = new Client(t.app);
        await exporter.login();
        exporter.accountId = source;
        exporter.language = language;
        const res = await t.app.inject({
          method: 'POST',
          url: `/query/api/${resource}/export`,
          headers: {
            authorization: `Bearer ${exporter.token}`,
            'x-account-id': String(source),
            'accept-language': language,
            'content-type': 'application/json',
          },
          payload: JSON.stringify({ filter: null, format, pageable: { page: 1, size: 1000, sort: ['name,asc'] } }),
        });
        expect(res.statusCode).toBe(200);
        const content = res.rawPayload;
        const text = format === 'csv' ? res.body : await xlsxText(content as unknown as ArrayBuffer);
        if (resource === 'regions') {
          const [head, first] = text.trim().split('\n');
          expect(head?.split(',')).toContain(language === 'tr' ? 'Ad' : 'Name');
          expect(head).not.toMatch(/cityId|countryId/);
          // A city by its name, not its number.
          const city = await exporter.get('cities', original[0]?.cityId as number);
          expect(first).toContain(city.body.data.name);
        } else if (resource === 'system-log-settings') {
          // Options as the screen shows them, not their stored values.
          expect(text).toContain(language === 'tr' ? 'Bilgi' : 'Info');
          expect(text).toContain(language === 'tr' ? 'Uyarı' : 'Warning');
          expect(text).not.toMatch(/\binfo\b|\bwarn\b/);
        } else {
          expect(text).toContain(
            language === 'tr' ? 'Varsayılan ADR algoritması (yalnız LoRa)' : 'Default ADR algorithm (LoRa only)',
          );
          expect(text).toContain(language === 'tr' ? 'Yalnız LR-FHSS ADR algoritması' : 'LR-FHSS only ADR algorithm');
          expect(text).not.toMatch(/\blr_fhss\b/);
          // Codes stay codes, in every language.
          expect(text).toContain('US915');
          expect(text).toContain('LORAWAN_1_0_4');
        }
        const importer = new Client(t.app);
        await importer.login();
        importer.accountId = target;
        importer.language = language;
        const imported = await importer.call('POST', `/command/api/${resource}/import`, {
          fileName: `${resource}.${format}`,
          content: content.toString('base64'),
        });
        expect(imported.status, imported.raw).toBe(200);
        const report = lines(imported.raw).at(-1).report;
        expect(report.refused, resource).toEqual([]);
        expect(report.imported).toBe(original.length);
        expect(await recordsOf(resource, target)).toEqual(original);
      }
    });
  }

  it('takes an option by its label in either language or by its value, and refuses one it does not know', async () => {
    const target = await freshAccount(`Options ${Date.now()}`);
    const importer = new Client(t.app);
    await importer.login();
    importer.accountId = target;
    const csv = ['Ad,Seviye,Saklama (gün)', 'A,Hata ayıklama,7', 'B,error,7', 'C,WARNING,7', 'D,Sometimes,7'];
    const imported = await importer.call('POST', '/command/api/system-log-settings/import', {
      fileName: 'levels.csv',
      content: Buffer.from(csv.join('\n')).toString('base64'),
    });
    expect(imported.status, imported.raw).toBe(200);
    const report = lines(imported.raw).at(-1).report;
    expect(report.imported).toBe(3);
    expect(report.refused).toHaveLength(1);
    expect(report.refused[0].row).toBe(5);
    expect(Object.keys(report.refused[0].errors)).toEqual(['level']);
    const levels = (await importer.list('system-log-settings', { filter: null, pageable: page(1, 10, ['name,asc']) }))
      .body.data.content;
    expect(levels.map((l: { name: string; level: string }) => [l.name, l.level])).toEqual([
      ['A', 'debug'],
      ['B', 'error'],
      ['C', 'warn'],
    ]);
  });
});

/** The cells of an XLSX file's first sheet as text, row by row. */
async function xlsxText(content: ArrayBuffer): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content);
  const rows: string[] = [];
  workbook.worksheets[0]?.eachRow((row) => {
    rows.push(
      (row.values as unknown[])
        .slice(1)
        .map((v) => (v === null || v === undefined ? '' : String(v)))
        .join(','),
    );
  });
  return rows.join('\n');
}
