// A read-only zip directory reader for .npz and .pt archives: entries are inflated lazily and only as far as
// needed, so a small archive that unpacks to gigabytes cannot exhaust memory.
import { Inflate } from 'fflate';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

export class ZipError extends Error {}

const u16 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u32 = (b: Uint8Array, o: number) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16)) + b[o + 3] * 0x1000000;

export const isZip = (b: Uint8Array) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 3 && b[3] === 4;

/** Entries of the central directory; throws ZipError with a user sentence when the archive is damaged. */
export function zipEntries(b: Uint8Array): ZipEntry[] {
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) {
    if (b[i] === 0x50 && b[i + 1] === 0x4b && b[i + 2] === 5 && b[i + 3] === 6) { eocd = i; break; }
  }
  if (eocd < 0) throw new ZipError('The archive is incomplete or damaged (its zip directory is missing).');
  const count = u16(b, eocd + 10);
  let p = u32(b, eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (p + 46 > b.length || u32(b, p) !== 0x02014b50) throw new ZipError('The archive is damaged (its zip directory is unreadable).');
    const nameLen = u16(b, p + 28), extraLen = u16(b, p + 30), commentLen = u16(b, p + 32);
    const entry: ZipEntry = {
      method: u16(b, p + 10),
      compressedSize: u32(b, p + 20),
      size: u32(b, p + 24),
      offset: u32(b, p + 42),
      name: Buffer.from(b.subarray(p + 46, p + 46 + nameLen)).toString('utf8'),
    };
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff || entry.offset === 0xffffffff) {
      throw new ZipError('The archive uses zip64 entries larger than any upload; it cannot be read.');
    }
    entries.push(entry);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** The first `max` bytes of an entry (all of it by default), inflated as needed. */
export function zipRead(b: Uint8Array, e: ZipEntry, max = Infinity): Uint8Array {
  const p = e.offset;
  if (p + 30 > b.length || u32(b, p) !== 0x04034b50) throw new ZipError(`The archive is damaged (entry ${e.name} is unreadable).`);
  const start = p + 30 + u16(b, p + 26) + u16(b, p + 28);
  const data = b.subarray(start, start + e.compressedSize);
  if (data.length < e.compressedSize) throw new ZipError(`The archive is truncated (entry ${e.name} is cut short).`);
  if (e.method === 0) return data.subarray(0, Math.min(data.length, max));
  if (e.method !== 8) throw new ZipError(`Entry ${e.name} uses a zip compression method this service does not read (only stored and deflate).`);
  const chunks: Uint8Array[] = [];
  let got = 0;
  let broken = false;
  const inf = new Inflate((chunk) => { chunks.push(chunk); got += chunk.length; });
  try {
    for (let q = 0; q < data.length && got < max; q += 65536) inf.push(data.subarray(q, q + 65536), q + 65536 >= data.length);
  } catch {
    broken = true;
  }
  if (broken) throw new ZipError(`The archive is damaged (entry ${e.name} does not decompress).`);
  const out = Buffer.concat(chunks);
  return out.subarray(0, Math.min(out.length, max));
}
