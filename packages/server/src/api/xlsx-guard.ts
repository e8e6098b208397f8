import { createInflateRaw } from 'node:zlib';

/**
 * Limits on an uploaded XLSX (a zip), checked before any spreadsheet parser sees it. A real
 * import of 20,000 rows unpacks to a few MB at a ratio of 10–40; a zip bomb needs far more.
 */
export const XLSX_LIMITS = {
  /** Total unpacked size of every part. */
  uncompressedBytes: 50 * 1024 * 1024,
  /** Parts in the zip (a workbook has about ten). */
  entries: 100,
  /** Unpacked ÷ packed, for any part larger than `ratioFrom`. */
  ratio: 100,
  ratioFrom: 1024 * 1024,
} as const;

/** A file refused before it is read; `key` is a translation key of `errors.*`. */
export class FileRefused extends Error {
  constructor(
    readonly key: string,
    readonly vars: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

const tooLarge = () =>
  new FileRefused('errors.fileTooLarge', {
    megabytes: XLSX_LIMITS.uncompressedBytes / 1024 / 1024,
    entries: XLSX_LIMITS.entries,
    ratio: XLSX_LIMITS.ratio,
  });
const unreadable = () => new FileRefused('errors.fileUnreadable', { format: 'XLSX' });

interface Entry {
  name: Buffer;
  flags: number;
  method: number;
  crc: number;
  size: number;
  data: Buffer;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * Reads the zip's central directory and refuses the file when its parts are too many, too large
 * in total or too compressed. The sizes a zip declares can lie, so every part is then inflated
 * once, streamed through a byte counter and thrown away, and refused as soon as it passes what it
 * declared. What the parser gets is a zip rebuilt from exactly those checked parts (their packed
 * bytes as they were, sizes known up front, worksheets last so their shared strings come first):
 * no hidden local entries or data-descriptor tricks reach a streaming unzipper.
 */
export async function checkedXlsx(file: Buffer): Promise<Buffer[]> {
  const entries = readDirectory(file);
  let total = 0;
  for (const entry of entries) {
    total += entry.size;
    if (total > XLSX_LIMITS.uncompressedBytes) throw tooLarge();
    if (entry.size > XLSX_LIMITS.ratioFrom && entry.size > entry.data.length * XLSX_LIMITS.ratio) throw tooLarge();
  }
  for (const entry of entries) await checkInflatedSize(entry);
  const worksheet = (e: Entry) => /^xl\/worksheets\/sheet\d+\.xml$/.test(e.name.toString('utf8'));
  return rebuild([...entries.filter((e) => !worksheet(e)), ...entries.filter(worksheet)]);
}

function readDirectory(file: Buffer): Entry[] {
  let end = -1;
  for (let i = file.length - 22; i >= Math.max(0, file.length - 22 - 0xffff); i--) {
    if (file.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw unreadable();
  const count = file.readUInt16LE(end + 10);
  const directoryOffset = file.readUInt32LE(end + 16);
  // ZIP64 markers: nothing within the limits needs them.
  if (count === 0xffff || directoryOffset === 0xffffffff) throw tooLarge();
  if (count > XLSX_LIMITS.entries) throw tooLarge();
  const entries: Entry[] = [];
  let at = directoryOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > file.length || file.readUInt32LE(at) !== CENTRAL) throw unreadable();
    const flags = file.readUInt16LE(at + 8);
    const method = file.readUInt16LE(at + 10);
    const crc = file.readUInt32LE(at + 16);
    const packed = file.readUInt32LE(at + 20);
    const size = file.readUInt32LE(at + 24);
    const nameLength = file.readUInt16LE(at + 28);
    const extraLength = file.readUInt16LE(at + 30);
    const commentLength = file.readUInt16LE(at + 32);
    const local = file.readUInt32LE(at + 42);
    const name = file.subarray(at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (packed === 0xffffffff || size === 0xffffffff) throw tooLarge();
    // Encrypted parts and methods other than stored and deflate: not a workbook Lampyr can read.
    if (flags & 0x1 || (method !== 0 && method !== 8)) throw unreadable();
    if (local + 30 > file.length || file.readUInt32LE(local) !== LOCAL) throw unreadable();
    const start = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
    if (start + packed > file.length) throw unreadable();
    if (method === 0 && packed !== size) throw unreadable();
    entries.push({ name, flags, method, crc, size, data: file.subarray(start, start + packed) });
  }
  return entries;
}

/** Inflates a part into nothing, counting; more than it declared is refused at once. */
function checkInflatedSize(entry: Entry): Promise<void> {
  if (entry.method === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const inflate = createInflateRaw();
    let bytes = 0;
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      if (error) reject(error);
      else resolve();
    };
    inflate.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > entry.size) settle(tooLarge());
    });
    inflate.on('end', () => settle(bytes === entry.size ? undefined : unreadable()));
    inflate.on('error', () => settle(unreadable()));
    inflate.end(entry.data);
  });
}

/** A plain zip of the checked parts: local headers with their sizes, then the central directory. */
function rebuild(entries: Entry[]): Buffer[] {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const flags = entry.flags & 0x800; // keep only "the name is UTF-8"
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(entry.name.length, 26);
    chunks.push(local, entry.name, entry.data);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(CENTRAL, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(flags, 8);
    record.writeUInt16LE(entry.method, 10);
    record.writeUInt32LE(entry.crc, 16);
    record.writeUInt32LE(entry.data.length, 20);
    record.writeUInt32LE(entry.size, 24);
    record.writeUInt16LE(entry.name.length, 28);
    record.writeUInt32LE(offset, 42);
    central.push(record, entry.name);
    offset += 30 + entry.name.length + entry.data.length;
  }
  const directorySize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  return [...chunks, ...central, end];
}
