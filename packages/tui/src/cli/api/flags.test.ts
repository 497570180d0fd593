// `portal api`'s flags, parsed into its options without making a call (gh's api_test.go does the same for its own).
import { describe, expect, it } from 'vitest';
import { parseVerb } from '../verb';
import * as api from './api';

describe('portal api: flags into options', () => {
  it('takes the path, -X, and repeatable -f, -F and -H', () => {
    expect(parseVerb(api, ['/api/bucket/name', '-X', 'POST', '-f', 'bucket=b1', '-f', 'name=Churn v2', '-F', 'active=1'])).toEqual({
      path: '/api/bucket/name',
      method: 'POST',
      rawField: ['bucket=b1', 'name=Churn v2'],
      field: ['active=1'],
    });
    expect(parseVerb(api, ['user/permission', '-i', '-H', 'Accept-Language: en', '--paginate'])).toEqual({
      path: 'user/permission',
      include: true,
      header: ['Accept-Language: en'],
      paginate: true,
    });
  });

  it('reads --input, and refuses a missing path', () => {
    expect(parseVerb(api, ['/api/x', '--input', '-'])).toEqual({ path: '/api/x', input: '-' });
    expect(() => parseVerb(api, [])).toThrow(/missing required argument 'path'/);
  });
});
