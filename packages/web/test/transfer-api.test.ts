import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../src/lib/api-errors.ts';
import { setRuntimeConfig } from '../src/lib/runtime-config.ts';
import { exportList, importFile, ndjsonLines, readImportStream, toBase64 } from '../src/lib/transfer-api.ts';

/** A body that arrives in the given pieces, as a network may cut it. */
function streamOf(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function collect<T>(lines: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

describe('import stream', () => {
  it('reads NDJSON lines cut anywhere, multi-byte characters included, with or without a final newline', async () => {
    const text = '{"a":1}\n{"b":"Kadıköy"}\n\n{"c":3}';
    const bytes = new TextEncoder().encode(text);
    // Cut inside the two-byte "ı" and inside a line.
    const cut = [3, 15, 16, bytes.length];
    const pieces: Uint8Array[] = [];
    let from = 0;
    for (const to of cut) {
      pieces.push(bytes.slice(from, to));
      from = to;
    }
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of pieces) c.enqueue(p);
        c.close();
      },
    });
    expect(await collect(ndjsonLines(body))).toEqual([{ a: 1 }, { b: 'Kadıköy' }, { c: 3 }]);
  });

  it('reports every progress line and keeps the final report', async () => {
    const progress = vi.fn();
    const report = { total: 50, imported: 48, refused: [{ row: 7, errors: { name: 'Name is required' } }] };
    const outcome = await readImportStream(
      streamOf([
        '{"progress":{"done":25,"total":50}}\n{"progr',
        'ess":{"done":50,"total":50}}\n',
        `${JSON.stringify({ report })}\n`,
      ]),
      progress,
    );
    expect(progress.mock.calls.map(([p]) => p)).toEqual([
      { done: 25, total: 50 },
      { done: 50, total: 50 },
    ]);
    expect(outcome).toEqual({ report });
  });

  it('keeps the error and the partial report of an import that stopped', async () => {
    const outcome = await readImportStream(
      streamOf([
        '{"error":{"code":"INTERNAL","message":"Something broke"},"report":{"total":9,"imported":3,"refused":[]}}\n',
      ]),
      () => undefined,
    );
    expect(outcome.error).toEqual({ code: 'INTERNAL', message: 'Something broke' });
    expect(outcome.report?.imported).toBe(3);
  });
});

describe('import and export calls', () => {
  beforeEach(() => {
    setRuntimeConfig({ queryUrl: 'https://q.example/api', commandUrl: 'https://c.example/api' });
    window.localStorage.setItem('authToken', 'tok');
    window.localStorage.setItem('selectedAccount', '3');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the file as base64 with its name and streams the answer', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response('{"progress":{"done":1,"total":1}}\n{"report":{"total":1,"imported":1,"refused":[]}}\n', {
          status: 200,
          headers: { 'Content-Type': 'application/x-ndjson' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const file = new File(['name\nKDK-1\n'], 'devices.csv', { type: 'text/csv' });
    const outcome = await importFile('devices', file, () => undefined);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://c.example/api/devices/import');
    expect(JSON.parse(String(init.body))).toEqual({ fileName: 'devices.csv', content: btoa('name\nKDK-1\n') });
    expect(outcome.report).toEqual({ total: 1, imported: 1, refused: [] });
  });

  it('throws the envelope of a refused file (unknown columns) as an HttpError', async () => {
    const envelope = { success: false, error: { code: 'INVALID_FIELD', message: 'Unknown field: colour' } };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(envelope), { status: 400 })),
    );
    const error = await importFile('devices', new File(['colour\n'], 'd.csv'), () => undefined).catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).code).toBe('INVALID_FIELD');
  });

  it('exports with the list filters, columns and sort, and names the file from the answer', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response('id,name\n', {
          status: 200,
          headers: { 'content-disposition': 'attachment; filename="devices.csv"' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { fileName, blob } = await exportList(
      'devices',
      {
        filter: { regionId: 2, q: '' },
        detailFilter: [{ field: 'sleepTime', operator: 'gte', value: 5 }],
        selectedColumns: { name: true, devEui: false },
        sort: ['name,asc'],
      },
      'csv',
    );
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://q.example/api/devices/export');
    expect(JSON.parse(String(init.body))).toEqual({
      filter: { regionId: 2 },
      detailFilter: [{ field: 'sleepTime', operator: 'gte', value: 5 }],
      selectedColumns: { name: true },
      pageable: { page: 1, size: 1, sort: ['name,asc'] },
      format: 'csv',
    });
    expect(fileName).toBe('devices.csv');
    expect(await blob.text()).toBe('id,name\n');
  });

  it('encodes binary files to base64 byte for byte', async () => {
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 7) % 256);
    const encoded = await toBase64(new Blob([bytes]));
    expect(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0))).toEqual(bytes);
  });
});
