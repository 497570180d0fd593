// The projects verbs' flags, parsed into their options without running anything (no server, no store).
import { describe, expect, it } from 'vitest';
import { parseVerb } from '../verb';
import * as list from './list';
import * as create from './create';
import * as rename from './rename';
import * as remove from './remove';
import * as open from './open';

describe('portal projects: flags into options', () => {
  it('list takes --limit', () => {
    expect(parseVerb(list, [])).toEqual({});
    expect(parseVerb(list, ['--limit', '3'])).toEqual({ limit: '3' });
  });

  it('create takes --name', () => {
    expect(parseVerb(create, ['--name', 'Churn model'])).toEqual({ name: 'Churn model' });
    expect(parseVerb(create, [])).toEqual({});
  });

  it('rename and remove take the id, and --name or --yes', () => {
    expect(parseVerb(rename, ['p1', '--name', 'Q3'])).toEqual({ id: 'p1', name: 'Q3' });
    expect(parseVerb(remove, ['p1', '-y'])).toEqual({ id: 'p1', yes: true });
    expect(parseVerb(remove, ['p1'])).toEqual({ id: 'p1' });
  });

  it('open needs its id; an unknown flag is a usage error', () => {
    expect(parseVerb(open, ['p1'])).toEqual({ id: 'p1' });
    expect(() => parseVerb(open, [])).toThrow(/missing required argument 'id'/);
    expect(() => parseVerb(create, ['--title', 'x'])).toThrow(/unknown option '--title'/);
  });
});
