import { type Channel, SCALE } from './demo-fleet.ts';

const scaleOf = (code: string, formula: string) => {
  if (formula.trim() === 'x') return 1;
  const k = Number((SCALE[code] ?? 'k=1').split('=')[1]);
  return Number.isFinite(k) && k !== 0 ? k : 1;
};

/** The controller's firmware side: its readings packed the way its channel templates decode them. */
export function encodeUplink(layout: readonly Channel[], values: Record<string, number>): Buffer {
  const size = layout.reduce((sum, [, , , bytes]) => sum + bytes, 0);
  const buffer = Buffer.alloc(size);
  let offset = 0;
  for (const [code, , type, bytes, formula] of layout) {
    const raw = Math.round((values[code] ?? 0) / scaleOf(code, formula));
    const signed = type.startsWith('int');
    const max = signed ? 2 ** (bytes * 8 - 1) - 1 : 2 ** (bytes * 8) - 1;
    const min = signed ? -(2 ** (bytes * 8 - 1)) : 0;
    const clamped = Math.max(min, Math.min(max, type === 'bool' ? (raw ? 1 : 0) : raw));
    if (signed) buffer.writeIntBE(clamped, offset, bytes);
    else buffer.writeUIntBE(clamped, offset, bytes);
    offset += bytes;
  }
  return buffer;
}

/** A command frame: channel number (its `mqttPackageOrder`), then the value in that channel's width. */
export function decodeDownlink(layout: readonly Channel[], data: Buffer): { code: string; value: number } | undefined {
  const order = data[0];
  const channel = order === undefined ? undefined : layout[order - 1];
  if (!channel) return undefined;
  const [code, , type, bytes, formula, , , , writable] = channel;
  if (!writable || data.length < 1 + bytes) return undefined;
  const raw = type.startsWith('int') ? data.readIntBE(1, bytes) : data.readUIntBE(1, bytes);
  return { code, value: raw * scaleOf(code, formula) };
}
