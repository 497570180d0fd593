// A gzip'd tar (ustar) of regular files, written and read as streams: the backup's container, which `tar -xzf` opens too.
import { constants, createReadStream, createWriteStream, openSync } from 'node:fs';
import { once } from 'node:events';
import { createGunzip, createGzip } from 'node:zlib';
import type { Readable, Writable } from 'node:stream';

const BLOCK = 512;

function header(name: string, size: number, mode: number, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  // Long names go in ustar's prefix field: split at a slash so both parts fit (100 + 155 bytes).
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut < 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`A name too long for the archive: ${name}`);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  const put = (text: string, at: number, len: number) => h.write(text, at, len, 'utf8');
  const octal = (n: number, at: number, len: number) => put(n.toString(8).padStart(len - 1, '0') + '\0', at, len);
  put(base, 0, 100);
  octal(mode, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(size, 124, 12);
  octal(Math.floor(mtime), 136, 12);
  put('        ', 148, 8);
  put('0', 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  put(prefix, 345, 155);
  let sum = 0;
  for (const b of h) sum += b;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return h;
}

/** Writes entries into FILE (gzip'd tar); close() ends the archive. */
export class TarWriter {
  private readonly gzip = createGzip();
  private readonly out: Writable;
  private readonly done: Promise<unknown>;

  /** Makes FILE, exclusively: a name already taken (a file, or a link to one) fails here rather than being written through. */
  constructor(file: string, mode = 0o600) {
    const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    this.out = createWriteStream('', { fd });
    this.gzip.pipe(this.out);
    this.done = once(this.out, 'close');
  }

  private async write(chunk: Buffer): Promise<void> {
    if (!this.gzip.write(chunk)) await once(this.gzip, 'drain');
  }

  private async pad(size: number): Promise<void> {
    if (size % BLOCK) await this.write(Buffer.alloc(BLOCK - (size % BLOCK)));
  }

  async add(name: string, bytes: Buffer | Uint8Array, mode = 0o600): Promise<void> {
    await this.write(header(name, bytes.length, mode, Date.now() / 1000));
    await this.write(Buffer.from(bytes));
    await this.pad(bytes.length);
  }

  /** A file from disk, streamed (uploads may be large); `size` as stat gave it. */
  async addFile(name: string, path: string, size: number, mode = 0o600): Promise<void> {
    await this.write(header(name, size, mode, Date.now() / 1000));
    let sent = 0;
    for await (const chunk of createReadStream(path, { start: 0, end: Math.max(0, size - 1) })) {
      if (size === 0) break;
      sent += (chunk as Buffer).length;
      await this.write(chunk as Buffer);
    }
    if (sent !== size) throw new Error(`${path} changed size while it was copied.`);
    await this.pad(size);
  }

  async close(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    this.gzip.end();
    await this.done;
  }
}

export interface TarEntry {
  name: string;
  size: number;
  /** The entry's bytes, as a stream of chunks; must be read (or skipped) before the next entry. */
  body: AsyncIterable<Buffer>;
}

/** Reads a gzip'd tar entry by entry; only regular files are handed out (anything else is refused). */
export async function* readTar(file: string): AsyncGenerator<TarEntry> {
  const input: Readable = createReadStream(file).pipe(createGunzip());
  const chunks = input[Symbol.asyncIterator]();
  let buffered = Buffer.alloc(0);
  const fill = async (n: number): Promise<boolean> => {
    while (buffered.length < n) {
      const next = await chunks.next();
      if (next.done) return false;
      buffered = Buffer.concat([buffered, next.value as Buffer]);
    }
    return true;
  };
  const take = (n: number) => {
    const out = buffered.subarray(0, n);
    buffered = buffered.subarray(n);
    return out;
  };
  for (;;) {
    if (!(await fill(BLOCK))) throw new Error('The archive ends early: it is not a complete backup.');
    const h = take(BLOCK);
    if (h.every((b) => b === 0)) return;
    const text = (at: number, len: number) => h.toString('utf8', at, at + len).replace(/\0.*$/s, '');
    const size = parseInt(text(124, 12).trim() || '0', 8);
    const type = text(156, 1) || '0';
    const prefix = text(345, 155);
    const name = prefix ? `${prefix}/${text(0, 100)}` : text(0, 100);
    if (type !== '0' || !Number.isSafeInteger(size) || size < 0) throw new Error(`The archive holds an entry that is not a file: ${name}`);
    let left = size;
    async function* body(): AsyncGenerator<Buffer> {
      while (left > 0) {
        if (!buffered.length && !(await fill(1))) throw new Error('The archive ends early: it is not a complete backup.');
        const part = take(Math.min(left, buffered.length));
        left -= part.length;
        yield Buffer.from(part);
      }
    }
    const entry: TarEntry = { name, size, body: body() };
    yield entry;
    // Whatever the reader left unread of this entry is skipped, then the padding.
    while (left > 0) {
      if (!buffered.length && !(await fill(1))) throw new Error('The archive ends early: it is not a complete backup.');
      left -= take(Math.min(left, buffered.length)).length;
    }
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad && !(await fill(pad))) throw new Error('The archive ends early: it is not a complete backup.');
    take(pad);
  }
}
