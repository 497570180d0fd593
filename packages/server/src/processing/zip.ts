// A read-only zip reader for .npz and .pt archives that an upload cannot amplify: every entry is listed once
// and owns its own bytes, each is inflated once, only as far as asked, never past its declared size, and the
// whole archive never inflates past MAX_INFLATED_BYTES.
import { Inflate } from 'fflate';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
  /** Where the entry's stored bytes start (after its local header). */
  dataStart: number;
}

export class ZipError extends Error {}

/**
 * What one archive may inflate in all, across its entries. Only headers (.npz) and the model description
 * (.pt's data.pkl, typically kilobytes) are ever inflated, so 32 MB is far above any real upload of the
 * largest plan (10 MB) and low enough that a crafted one cannot hurt the worker.
 */
export const MAX_INFLATED_BYTES = 32 * 1024 * 1024;

/** Compressed bytes given to the inflater at a time: deflate expands at most ~1032×, so one step yields ≤ ~0.5 MB. */
const STEP = 512;

const u16 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u32 = (b: Uint8Array, o: number) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16)) + b[o + 3] * 0x1000000;
const fmt = (n: number) => n.toLocaleString('en-US');
const RESAVE = 'save it again with a standard tool (np.savez, torch.save or zip)';

export const isZip = (b: Uint8Array) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 3 && b[3] === 4;

/** One entry being inflated: `take(n)` returns its first n bytes, inflating only what is still missing. */
export interface EntryStream {
  take(n: number): Uint8Array;
}

export class ZipArchive {
  readonly entries: readonly ZipEntry[];
  private readonly byName: Map<string, ZipEntry>;
  private readonly opened = new Set<ZipEntry>();
  private inflated = 0;

  /** Reads the central directory; throws ZipError with a user sentence when the archive is damaged or lies. */
  constructor(private readonly b: Uint8Array) {
    this.entries = readDirectory(b);
    this.byName = new Map(this.entries.map((e) => [e.name, e]));
  }

  get(name: string): ZipEntry | undefined {
    return this.byName.get(name);
  }

  /** The first `max` bytes of an entry (all of it by default). */
  read(e: ZipEntry, max = e.size): Uint8Array {
    return this.open(e).take(max);
  }

  /** Opens an entry for reading; each entry is opened at most once, so no member is inflated twice. */
  open(e: ZipEntry): EntryStream {
    if (this.opened.has(e)) throw new Error(`zip entry ${e.name} opened twice`);
    this.opened.add(e);
    const data = this.b.subarray(e.dataStart, e.dataStart + e.compressedSize);
    if (e.method === 0) return { take: (n) => data.subarray(0, Math.min(n, data.length)) };
    if (e.method !== 8)
      throw new ZipError(`Entry ${e.name} uses a zip compression method this service does not read (only stored and deflate).`);
    const chunks: Uint8Array[] = [];
    let got = 0;
    let fed = 0;
    let out: Uint8Array = new Uint8Array(0);
    const inf = new Inflate((chunk) => {
      chunks.push(chunk);
      got += chunk.length;
      this.inflated += chunk.length;
    });
    return {
      take: (n) => {
        const want = Math.min(n, e.size);
        while (got < want && fed < data.length) {
          try {
            inf.push(data.subarray(fed, fed + STEP), fed + STEP >= data.length);
          } catch {
            throw new ZipError(`The archive is damaged (entry ${e.name} does not decompress).`);
          }
          fed += STEP;
          if (got > e.size) {
            throw new ZipError(
              `Entry ${e.name} of the archive unpacks to more than its declared ${fmt(e.size)} bytes, so the archive is damaged or was crafted; ${RESAVE}.`,
            );
          }
          if (this.inflated > MAX_INFLATED_BYTES) {
            throw new ZipError(
              `This archive unpacks to more than ${MAX_INFLATED_BYTES / 1024 / 1024} MB in total before its arrays or tensors could be measured; ${RESAVE}, or split it into smaller files.`,
            );
          }
        }
        if (got < want) throw new ZipError(`The archive is damaged (entry ${e.name} holds fewer bytes than its declared ${fmt(e.size)}).`);
        if (out.length < want) {
          out = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
          chunks.length = 0;
          chunks.push(out);
        }
        return out.subarray(0, want);
      },
    };
  }
}

function readDirectory(b: Uint8Array): ZipEntry[] {
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) {
    if (b[i] === 0x50 && b[i + 1] === 0x4b && b[i + 2] === 5 && b[i + 3] === 6) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('The archive is incomplete or damaged (its zip directory is missing).');
  const count = u16(b, eocd + 10);
  const dirStart = u32(b, eocd + 16);
  let p = dirStart;
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  for (let i = 0; i < count; i++) {
    if (p + 46 > b.length || u32(b, p) !== 0x02014b50) throw new ZipError('The archive is damaged (its zip directory is unreadable).');
    const nameLen = u16(b, p + 28),
      extraLen = u16(b, p + 30),
      commentLen = u16(b, p + 32);
    const name = Buffer.from(b.subarray(p + 46, p + 46 + nameLen)).toString('utf8');
    const method = u16(b, p + 10),
      compressedSize = u32(b, p + 20),
      size = u32(b, p + 24),
      offset = u32(b, p + 42);
    if (size === 0xffffffff || compressedSize === 0xffffffff || offset === 0xffffffff) {
      throw new ZipError('The archive uses zip64 entries larger than any upload; it cannot be read.');
    }
    if (names.has(name)) throw new ZipError(`The archive lists the entry ${name} more than once; ${RESAVE} so each entry appears once.`);
    names.add(name);
    if (offset + 30 > b.length || u32(b, offset) !== 0x04034b50)
      throw new ZipError(`The archive is damaged (entry ${name} is unreadable).`);
    const dataStart = offset + 30 + u16(b, offset + 26) + u16(b, offset + 28);
    if (dataStart + compressedSize > b.length) throw new ZipError(`The archive is truncated (entry ${name} is cut short).`);
    if (method === 0 && compressedSize !== size)
      throw new ZipError(
        `The archive is damaged (entry ${name} is stored uncompressed but declares ${fmt(size)} bytes for ${fmt(compressedSize)}).`,
      );
    entries.push({ name, method, compressedSize, size, offset, dataStart });
    p += 46 + nameLen + extraLen + commentLen;
  }
  // Each entry must own its bytes: entries that share stored bytes would make one small archive read as many.
  const byOffset = [...entries].sort((x, y) => x.offset - y.offset);
  for (let i = 1; i < byOffset.length; i++) {
    const prev = byOffset[i - 1],
      cur = byOffset[i];
    if (cur.offset < prev.dataStart + prev.compressedSize) {
      throw new ZipError(
        `The archive's entries ${prev.name} and ${cur.name} overlap (they share stored bytes), so the archive is damaged or was crafted; ${RESAVE}.`,
      );
    }
  }
  const last = byOffset[byOffset.length - 1];
  if (last && last.dataStart + last.compressedSize > dirStart) {
    throw new ZipError(`The archive's entry ${last.name} overlaps its zip directory, so the archive is damaged or was crafted; ${RESAVE}.`);
  }
  return entries;
}
