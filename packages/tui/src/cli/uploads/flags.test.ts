// The uploads verbs' flags, parsed into their options without running anything.
import { describe, expect, it } from 'vitest';
import { parseVerb } from '../verb';
import * as push from './push';
import * as preview from './preview';

describe('portal uploads: flags into options', () => {
  it('push takes the files, --wait and --resume with or without an id', () => {
    expect(parseVerb(push, ['a.json', 'b.npy', '--wait'])).toEqual({ files: ['a.json', 'b.npy'], wait: true });
    expect(parseVerb(push, ['a.json', '--resume'])).toEqual({ files: ['a.json'], resume: true });
    expect(parseVerb(push, ['a.json', '--resume', 'u1'])).toEqual({ files: ['a.json'], resume: 'u1' });
    expect(() => parseVerb(push, [])).toThrow(/missing required argument 'files'/);
  });

  it('preview takes the id and --file', () => {
    expect(parseVerb(preview, ['u1', '--file', 'b.json'])).toEqual({ id: 'u1', file: 'b.json' });
  });
});
