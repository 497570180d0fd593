import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Found } from './found';
import { readNpy, readNpz } from './numpy';
import { readPickleFile, readPt } from './pickled';
import { readPyModel } from './pymodel';
import { scanJsonTable } from './table';
import { readText } from './text';

// Every reader answers damaged input with a sentence: none throws, none hangs.
const readers: Record<string, (b: Uint8Array) => Found | { ok: boolean }> = {
  json: (b) => scanJsonTable(b, true),
  txt: readText,
  npy: readNpy,
  npz: readNpz,
  pickle: readPickleFile,
  pt: readPt,
  py: (b) => readPyModel(Buffer.from(b).toString('utf8')),
};

let seeds: Uint8Array[] = [];
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fuzz-'));
  execFileSync('python3', [fileURLToPath(new URL('./fixtures/make_pickles.py', import.meta.url)), dir]);
  seeds = readdirSync(dir).map((f) => new Uint8Array(readFileSync(join(dir, f))));
  seeds.push(
    new TextEncoder().encode('[[1,2,3],[4,5,6]]'),
    new TextEncoder().encode('a,b\n1,2\n3,4\n'),
    new TextEncoder().encode(
      'import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self, d=4):\n        self.a = nn.Linear(d, 2)\n',
    ),
    zipSync({ 'a.npy': new Uint8Array([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 6, 0, 123, 125, 32, 32, 32, 10]) }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A seed with some bytes overwritten, some cut off, or bytes inserted. */
const mutated = () =>
  fc
    .record({
      seed: fc.nat(),
      edits: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
      cut: fc.option(fc.nat()),
    })
    .map(({ seed, edits, cut }) => {
      const base = seeds[seed % seeds.length];
      const b = Uint8Array.from(base);
      for (const [at, v] of edits) if (b.length) b[at % b.length] = v;
      return cut === null ? b : b.subarray(0, cut % (b.length + 1));
    });

describe('readers on damaged input', () => {
  for (const [name, read] of Object.entries(readers)) {
    it(`${name}: returns a result or a sentence, never throws`, () => {
      fc.assert(
        fc.property(fc.oneof(mutated(), fc.uint8Array({ maxLength: 300 })), (bytes) => {
          const r = read(bytes);
          expect(typeof r.ok).toBe('boolean');
          if (!r.ok) expect((r as { error: string }).error).toMatch(/^[A-Z"a-z].*[.)]$/s);
        }),
        { numRuns: 300, seed: 20261121 },
      );
    });
  }

  it('does not take quadratic time on a pickle with a megabyte-long integer', () => {
    const digits = '9'.repeat(1_000_000);
    const t0 = performance.now();
    expect(readPickleFile(new TextEncoder().encode(`L${digits}L\n.`)).ok).toBe(false);
    const long4 = new Uint8Array(7 + 1_000_000 + 1).fill(0x7f);
    long4.set([0x80, 2, 0x8b, 0x40, 0x42, 0x0f, 0x00], 0);
    long4[long4.length - 1] = 0x2e;
    expect(readPickleFile(long4)).toEqual({
      ok: false,
      error: 'This pickle holds no numeric arrays or tables whose size can be read without running its code.',
    });
    expect(performance.now() - t0).toBeLessThan(1_000);
  });
});
