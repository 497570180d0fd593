import { describe, expect, it } from 'vitest';
import { ApiError } from './client';
import {
  callKey,
  createPortalQueryClient,
  invalidateNoun,
  JUMP_VIEW,
  renameEverywhere,
  retryRead,
  retryReadDelay,
  samePagedList,
  showsNoun,
  viewKey,
} from './query';

const refused = (status: number, retryAfterMs?: number) => new ApiError(status, 'x', null, 'Failed', undefined, retryAfterMs);

describe('keys', () => {
  it('are the call and its parameters, absent ones left out, so equal reads share one entry', () => {
    expect(callKey('permissions')).toEqual(['permissions', {}]);
    expect(callKey('bucketList', { active: 1, client: 'c', q: undefined, cursor: '' })).toEqual(['bucketList', { active: 1, client: 'c' }]);
    expect(viewKey('runStatus', { run: 'r' }, 'withEvents')).toEqual(['runStatus', { run: 'r' }, 'withEvents']);
  });

  it('say which nouns a read shows: its call, or the quick search that shows them all', () => {
    expect(showsNoun(callKey('runList', { bucket: 'b' }), 'Request')).toBe(true);
    expect(showsNoun(callKey('runList', { bucket: 'b' }), 'Project')).toBe(true);
    expect(showsNoun(callKey('apikeyList', { client: 'c' }), 'Project')).toBe(false);
    expect(showsNoun(viewKey('permissions', {}, JUMP_VIEW), 'API key')).toBe(true);
  });
});

describe('paged lists', () => {
  it('keep their rows across a page, order or search of the same list, not across another list', () => {
    const page = (params: object) => callKey('bucketList', { active: 1, client: 'c', ...params });
    expect(samePagedList(page({ limit: 25 }), page({ limit: 25, cursor: 'x' }))).toBe(true);
    expect(samePagedList(page({ limit: 200 }), page({ limit: 25 }))).toBe(false);
    expect(samePagedList(page({ limit: 25, order: 'newest' }), page({ limit: 25, order: 'oldest', q: 'churn' }))).toBe(true);
    expect(samePagedList(page({ limit: 25 }), callKey('bucketList', { active: 1, client: 'd', limit: 25 }))).toBe(false);
    expect(samePagedList(page({}), callKey('rendList', { active: 1, client: 'c' }))).toBe(false);
    expect(samePagedList(page({}), viewKey('bucketList', { active: 1, client: 'c' }, JUMP_VIEW))).toBe(false);
  });
});

describe('retries', () => {
  it('never try a refusal or a sign-in failure again; once after a Retry-After within the limit', () => {
    expect(retryRead(0, refused(404))).toBe(false);
    expect(retryRead(0, refused(400))).toBe(false);
    expect(retryRead(0, new ApiError(401, 'token_expired', null, 'Expired'))).toBe(false);
    // Passing trouble is the client's to try again (RETRY_DELAYS_MS), not the cache's.
    expect(retryRead(0, refused(503))).toBe(false);
    expect(retryRead(0, refused(429, 2_000))).toBe(true);
    expect(retryRead(0, refused(503, 2_000))).toBe(true);
    expect(retryReadDelay(0, refused(429, 2_000))).toBe(2_000);
    expect(retryRead(1, refused(429, 2_000))).toBe(false);
    expect(retryRead(0, refused(429, 600_000))).toBe(false);
  });
});

describe('a rename everywhere', () => {
  const projects = {
    client: { list: [] },
    bucket: {
      list: [
        { stamp: 'b1', name: 'Old' },
        { stamp: 'b2', name: 'Other' },
      ],
    },
  };
  const runs = { bucket: { stamp: 'b1', name: 'Old' }, run: { list: [{ stamp: 'r1', name: 'Req' }] } };
  const keys = { apikey: { list: [{ clue: 'k1', name: 'Laptop' }] } };

  it('shows the new name in every held answer that shows the thing, leaves the rest, and puts all back on undo', async () => {
    const client = createPortalQueryClient();
    client.setQueryData(callKey('bucketList', { client: 'c' }), projects);
    client.setQueryData(callKey('runList', { bucket: 'b1' }), runs);
    client.setQueryData(callKey('apikeyList', { client: 'c' }), keys);
    const undo = await renameEverywhere(client, 'Project', 'b1', 'New');
    expect(client.getQueryData<typeof projects>(callKey('bucketList', { client: 'c' }))?.bucket.list.map((b) => b.name)).toEqual([
      'New',
      'Other',
    ]);
    expect(client.getQueryData<typeof runs>(callKey('runList', { bucket: 'b1' }))?.bucket.name).toBe('New');
    // Unchanged answers keep their identity: nothing redraws for them.
    expect(client.getQueryData(callKey('apikeyList', { client: 'c' }))).toBe(keys);
    undo();
    expect(client.getQueryData(callKey('bucketList', { client: 'c' }))).toEqual(projects);
    expect(client.getQueryData(callKey('runList', { bucket: 'b1' }))).toEqual(runs);
  });

  it('finds a key by its clue', async () => {
    const client = createPortalQueryClient();
    client.setQueryData(callKey('apikeyList', { client: 'c' }), keys);
    await renameEverywhere(client, 'API key', 'k1', 'Desktop');
    expect(client.getQueryData<typeof keys>(callKey('apikeyList', { client: 'c' }))?.apikey.list[0].name).toBe('Desktop');
  });
});

describe('invalidation by noun', () => {
  it('makes old every read that shows the thing, and no other', async () => {
    const client = createPortalQueryClient();
    client.setQueryData(callKey('bucketList', { client: 'c' }), {});
    client.setQueryData(callKey('rendList', { bucket: 'b' }), {});
    client.setQueryData(callKey('apikeyList', { client: 'c' }), {});
    client.setQueryData(viewKey('permissions', { client: 'c' }, JUMP_VIEW), []);
    await invalidateNoun(client, 'Upload');
    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(stale(callKey('rendList', { bucket: 'b' }))).toBe(true);
    expect(stale(callKey('bucketList', { client: 'c' }))).toBe(true);
    expect(stale(viewKey('permissions', { client: 'c' }, JUMP_VIEW))).toBe(true);
    expect(stale(callKey('apikeyList', { client: 'c' }))).toBe(false);
  });
});
