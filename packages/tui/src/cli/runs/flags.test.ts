// The runs verbs' flags, parsed into their options without running anything.
import { describe, expect, it } from 'vitest';
import { parseVerb } from '../verb';
import * as list from './list';
import * as show from './show';
import * as map from './map';

describe('portal runs: flags into options', () => {
  it('list takes --status and --function; show takes the id and --wait; map --colour-by', () => {
    expect(parseVerb(list, ['--status', 'Failed', '--function', 'fit'])).toEqual({ status: 'Failed', function: 'fit' });
    expect(parseVerb(show, ['r1', '--wait'])).toEqual({ id: 'r1', wait: true });
    expect(parseVerb(map, ['r1', '--colour-by', 'petal_width'])).toEqual({ id: 'r1', colourBy: 'petal_width' });
  });
});
