import '@portal/core/testing/dom';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
  apiClient,
  rows,
  seedEmptyProject,
  seedModel,
  seedProject,
  seedQuote,
  seedRun,
  seedUpload,
  setPlan,
  setRow,
  withTestApi,
} from '@portal/testkit/api';
import { seedApiKey, setCredit, storedBytes } from '@portal/testkit/seed';
import { manualTimers } from '@portal/core/testing/timers';
import { ApiClient, memoryTokenStore, type TokenStore, MESSAGES, POLL_START_MS, type Timers, type UploadProgress } from '@portal/core';
import { PermissionResponse, callTable } from '@portal/core/contract/table';
import {
  PortalProvider,
  type NotifyAction,
  type NotifyKind,
  type UploadOutcome,
  useCopy,
  useAuth,
  useApiKeys,
  useClient,
  useIntegrations,
  useModels,
  usePermissions,
  useProjects,
  useRuns,
  useUploads,
  useBilling,
  useQuoteDetails,
  useRunDetails,
  useUsage,
  useFitRequest,
  useShrinkRequest,
  useJumpTargets,
  matchJumps,
  useRelatedRuns,
} from '@portal/core/react';

// The real server on the embedded database; no worker, so seeded states change only when a test changes them.
const server = withTestApi({ worker: false });

/** The hooks' provider on the test server; `timers` replaces the platform's clock the hooks poll on. */
function setup(tokens: TokenStore = memoryTokenStore(server.user.token), timers?: Timers) {
  const api = new ApiClient({ calls: callTable, baseUrl: server.url, tokens });
  const notes: Array<[string, NotifyKind | undefined]> = [];
  /** The action each notice offered (Undo), by its message. */
  const actions = new Map<string, NotifyAction>();
  const notifier = {
    notify: (m: string, k?: NotifyKind, o?: { action?: NotifyAction }) => {
      notes.push([m, k]);
      if (o?.action) actions.set(m, o.action);
    },
  };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <PortalProvider api={api} notifier={notifier} timers={timers}>
      {children}
    </PortalProvider>
  );
  return { api, notes, actions, wrapper, tokens };
}

const count = (name: string) => server.calls.filter((c) => c === name).length;
const projectRow = (stamp: string) =>
  rows(server).selectFrom('buckets').select(['name', 'active']).where('stamp', '=', stamp).executeTakeFirstOrThrow();

describe('useProjects', { timeout: 30_000 }, () => {
  it('loads, creates (new project in the list), removes (it leaves), and reports failures with SPEC texts', async () => {
    const first = await seedEmptyProject(server, { name: 'First' });
    // Only this account's active projects are listed (the list asks for active=1 of this client).
    const gone = await seedEmptyProject(server, { name: 'Removed' });
    await setRow(server, 'buckets', gone.stamp, { active: 0 });
    const other = await server.newUser({ label: 'bob' });
    await seedEmptyProject(server, { client: other.client, name: 'Not mine' });
    const { wrapper, notes } = setup();
    const { result } = renderHook(() => useProjects(server.user.client), { wrapper });
    expect(result.current.loading).toBe(true);
    await waitFor(() => expect(result.current.data?.projects.map((p) => p.name)).toEqual(['First']));
    expect(result.current.data?.client?.name).toBe(server.user.name);
    expect(server.calls).toEqual(['bucketList']);

    let outcome: string | null = 'unset';
    await act(async () => void (outcome = await result.current.create('   ')));
    expect(outcome).toBe('Please enter the title between 1 and 60 characters long');
    expect(notes.at(-1)).toEqual(['Please enter the title between 1 and 60 characters long', 'error']);
    expect(count('bucketCreate')).toBe(0);

    await act(async () => void (outcome = await result.current.create('  Second  ')));
    expect(outcome).toBeNull();
    const created = result.current.created;
    expect(created).toMatch(/^b_/);
    expect(await projectRow(created!)).toEqual({ name: 'Second', active: 1 });
    expect(result.current.data?.projects.map((p) => p.name)).toEqual(['First', 'Second']);
    expect(result.current.data?.projects[1].stamp).toBe(created);

    await act(async () => void (outcome = await result.current.rename(first.stamp, 'x'.repeat(61))));
    expect(outcome).toBe('Title must be between 1 and 60 characters long');
    server.failing.bucketRename = 500;
    await act(async () => void (outcome = await result.current.rename(first.stamp, 'Renamed')));
    expect(outcome).toBe('Failed to rename project. Please try again.');
    expect(notes.at(-1)).toEqual(['Failed to rename project. Please try again.', 'error']);
    expect((await projectRow(first.stamp)).name).toBe('First');

    await act(async () => void (outcome = await result.current.remove(first.stamp)));
    expect(outcome).toBeNull();
    expect(result.current.data?.projects.map((p) => p.stamp)).toEqual([created]);
    expect((await projectRow(first.stamp)).active).toBe(0);
  });

  it('confirms every create, rename and remove with a notice; a removal offers Undo, which puts the project back', async () => {
    const { wrapper, notes, actions } = setup();
    const { result } = renderHook(() => useProjects(server.user.client), { wrapper });
    await waitFor(() => expect(result.current.data).toBeDefined());
    await act(async () => void (await result.current.create('Kept')));
    const stamp = result.current.created!;
    await act(async () => void (await result.current.rename(stamp, 'Kept too')));
    await act(async () => void (await result.current.remove(stamp)));
    expect(notes).toEqual([
      ['Project "Kept" created.', 'success'],
      ['Project renamed to "Kept too".', 'success'],
      ['Project removed.', 'success'],
    ]);
    expect(result.current.data?.projects).toEqual([]);
    const undo = actions.get('Project removed.')!;
    expect(undo.label).toBe('Undo');
    await act(async () => void (await undo.run()));
    expect(result.current.data?.projects.map((p) => [p.stamp, p.name])).toEqual([[stamp, 'Kept too']]);
    expect(notes.at(-1)).toEqual(['Project restored.', 'success']);
    // A form that shows failures beside its field asks for no notice.
    server.failing.bucketCreate = 500;
    let outcome: string | null = null;
    await act(async () => void (outcome = await result.current.create('Fails', { inline: true })));
    expect(outcome).toBe('Failed to create project. Please try again.');
    expect(notes).toHaveLength(4);
  });

  it('keys: removal is confirmed without Undo (a removed token stays revoked)', async () => {
    const { wrapper, notes, actions } = setup();
    const { result } = renderHook(() => useApiKeys(server.user.client), { wrapper });
    await waitFor(() => expect(result.current.data).toBeDefined());
    await act(async () => void (await result.current.create('Laptop')));
    const clue = result.current.data!.keys[0].clue;
    await act(async () => void (await result.current.remove(clue)));
    expect(notes).toEqual([
      ['API key "Laptop" created.', 'success'],
      ['API key removed.', 'success'],
    ]);
    expect(actions.size).toBe(0);
  });
});

describe('usePermissions and useClient', { timeout: 30_000 }, () => {
  it('reads the permission list in either shape and finds the client', async () => {
    await setRow(server, 'clients', server.user.client, { choice: 'CloudPremise' });
    const { wrapper } = setup();
    const { result } = renderHook(() => useClient(server.user.client), { wrapper });
    await waitFor(() => expect(result.current.client?.choice).toBe('CloudPremise'));
    expect(result.current.client?.name).toBe(server.user.name);
    // The server sends the wrapped list; the contract also reads the bare array older servers sent.
    const entry = { client: result.current.client!, createdAt: 1 };
    expect(PermissionResponse.parse([entry])).toEqual(PermissionResponse.parse({ permission: { list: [entry] } }));
  });
  it('notifies "Error fetching permissions" once when the list cannot be read', async () => {
    server.failing.permissions = 500;
    const { wrapper, notes } = setup();
    const { result } = renderHook(() => usePermissions(), { wrapper });
    await waitFor(() => expect(result.current.error?.display).toBe('Error fetching permissions'));
    expect(notes).toEqual([['Error fetching permissions', 'error']]);
  });
  it('leaves a missing token to the door: error "Token missing", no notification', async () => {
    const { wrapper, notes } = setup(memoryTokenStore(null));
    const { result } = renderHook(() => usePermissions(), { wrapper });
    await waitFor(() => expect(result.current.error?.display).toBe('Token missing'));
    expect(notes).toEqual([]);
    // Nothing was sent without a token.
    expect(server.calls).toEqual([]);
  });
});

describe('useRunDetails: run insight', () => {
  const addEvents = (run: string, list: Array<{ kind: string; message: string; data: unknown }>) =>
    rows(server)
      .insertInto('run_events')
      .values(list.map((e) => ({ run, at: Math.floor(Date.now() / 1000), kind: e.kind, message: e.message, data: JSON.stringify(e.data) })))
      .execute();
  const epoch = (n: number, of: number) => ({
    kind: 'progress',
    message: `Epoch ${n}`,
    data: { epoch: n, epochs: of, loss: 1 / n, valLoss: 1.2 / n, points: [{ epoch: n, loss: 1 / n, valLoss: 1.2 / n }] },
  });

  it('reads the event log as it grows, each event once: progress, loss per epoch, timeline and duration', async () => {
    const { project, upload } = await seedProject(server);
    const run = await seedRun(server, project.stamp, upload.stamp, { name: 'Live', function: 'fit', state: 'Processing' });
    await setRow(server, 'runs', run.stamp, { started_at: Math.floor(Date.now() / 1000) - 90 });
    await addEvents(run.stamp, [epoch(1, 4), epoch(2, 4)]);
    const { wrapper } = setup();
    const { result } = renderHook(() => useRunDetails(server.user.client, project.stamp, run.stamp), { wrapper });
    await waitFor(() => expect(result.current.loss.map((p) => p.epoch)).toEqual([1, 2]));
    expect(result.current.progress).toEqual({ fraction: 0.5, label: 'Epoch 2 of 4' });
    expect(result.current.timeline.map((t) => t.state)).toEqual(['Processing']);
    expect(result.current.duration).toBeGreaterThanOrEqual(90);
    expect(result.current.canRerun).toBe(true);
    await addEvents(run.stamp, [epoch(3, 4), { kind: 'log', message: 'Stopped early after epoch 3 of 4.', data: null }]);
    await setRow(server, 'runs', run.stamp, { state: 'Finished' });
    await waitFor(() => expect(result.current.data?.run.record.state).toBe('Finished'), { timeout: 5000 });
    // Each event once, in order, the last page included.
    expect(result.current.events.map((e) => e.kind)).toEqual(['state', 'progress', 'progress', 'progress', 'log', 'state']);
    expect(result.current.loss.map((p) => p.loss)).toEqual([1, 0.5, 1 / 3]);
    expect(result.current.progress).toEqual({ fraction: 1, label: 'Finished' });
    expect(result.current.timeline.map((t) => t.state)).toEqual(['Processing', 'Finished']);
    expect(result.current.data?.run.record.finishedAt).toBeGreaterThan(0);
  }, 20_000);

  it("a generate request waiting for its model shows the model's training: progress and loss, live", async () => {
    const { project, upload } = await seedProject(server);
    const fit = await seedRun(server, project.stamp, upload.stamp, { function: 'fit', state: 'Processing' });
    const gen = await seedRun(server, project.stamp, upload.stamp, { name: 'Waits', function: 'generate', state: 'Pending' });
    await setRow(server, 'runs', gen.stamp, { fit: fit.stamp });
    await addEvents(fit.stamp, [epoch(1, 4)]);
    const { wrapper } = setup();
    const { result, unmount } = renderHook(() => useRunDetails(server.user.client, project.stamp, gen.stamp), { wrapper });
    await waitFor(() => expect(result.current.progress).toEqual({ fraction: 0.25, label: 'Training its model: Epoch 1 of 4' }));
    expect(result.current.loss.map((p) => p.epoch)).toEqual([1]);
    expect(result.current.timeline.map((t) => t.state)).toEqual(['Pending']);
    // The training goes on: the next poll (every second while the model trains) brings its epochs.
    await addEvents(fit.stamp, [epoch(2, 4)]);
    await waitFor(() => expect(result.current.loss.map((p) => p.epoch)).toEqual([1, 2]), { timeout: 4000 });
    expect(result.current.progress?.label).toBe('Training its model: Epoch 2 of 4');
    // Still waiting, so still polling: stop it here.
    unmount();
  });

  it('runs a generate request again: a new request on the same upload with the same model', async () => {
    const { project, upload } = await seedProject(server);
    const fit = await seedRun(server, project.stamp, upload.stamp, { function: 'fit', state: 'Finished' });
    const gen = await seedRun(server, project.stamp, upload.stamp, { name: 'Again', function: 'generate', state: 'Finished' });
    await setRow(server, 'runs', gen.stamp, { fit: fit.stamp });
    const { wrapper, notes } = setup();
    const { result } = renderHook(() => useRunDetails(server.user.client, project.stamp, gen.stamp), { wrapper });
    await waitFor(() => expect(result.current.data?.run.record.state).toBe('Finished'));
    let stamp: string | null = null;
    await act(async () => {
      stamp = await result.current.rerun();
    });
    expect(stamp).toBeTruthy();
    const made = await rows(server).selectFrom('runs').selectAll().where('stamp', '=', stamp!).executeTakeFirstOrThrow();
    expect(made).toMatchObject({ name: 'Again', function: 'generate', fit: fit.stamp, rend: upload.stamp, state: 'Pending' });
    expect(notes).toEqual([]);
    // A shrink cannot be run again (the server refuses it with a 409): SPEC's failure text is shown.
    const shrink = await seedRun(server, project.stamp, upload.stamp, { function: 'shrink', state: 'Finished' });
    const other = renderHook(() => useRunDetails(server.user.client, project.stamp, shrink.stamp), { wrapper });
    await waitFor(() => expect(other.result.current.data).toBeDefined());
    expect(other.result.current.canRerun).toBe(false);
    await act(async () => void (await other.result.current.rerun()));
    expect(notes.at(-1)).toEqual([MESSAGES.createRequest, 'error']);
  });
});

describe('useUsage and the requests filters', () => {
  it('loads 30 days of usage by default and another period on demand', async () => {
    const { project, upload } = await seedProject(server);
    await seedRun(server, project.stamp, upload.stamp, { function: 'fit', createdAt: Math.floor(Date.now() / 1000) });
    const { wrapper } = setup();
    const { result } = renderHook(() => useUsage(server.user.client), { wrapper });
    await waitFor(() => expect(result.current.data?.usage.days.length).toBe(30));
    expect(result.current.data!.usage.days.at(-1)!.fits).toBeGreaterThanOrEqual(1);
    act(() => result.current.setDays(7));
    await waitFor(() => expect(result.current.data?.usage.days.length).toBe(7));
    expect(result.current.days).toBe(7);
  });

  it('useRuns narrows the list to a state and a function', async () => {
    const project = await seedEmptyProject(server);
    const upload = await seedUpload(server, project.stamp);
    await seedRun(server, project.stamp, upload.stamp, { name: 'ok fit', function: 'fit', state: 'Finished' });
    await seedRun(server, project.stamp, upload.stamp, { name: 'bad fit', function: 'fit', state: 'Failed', message: 'No.' });
    await seedRun(server, project.stamp, upload.stamp, { name: 'gen', function: 'generate', state: 'Finished' });
    const { wrapper } = setup();
    const { result } = renderHook(() => useRuns(server.user.client, project.stamp), { wrapper });
    await waitFor(() => expect(result.current.data?.runs.length).toBe(3));
    act(() => result.current.setFilters({ function: 'fit' }));
    await waitFor(() => expect(result.current.data?.runs.map((r) => r.name).sort()).toEqual(['bad fit', 'ok fit']));
    act(() => result.current.setFilters({ function: 'fit', state: 'Failed' }));
    await waitFor(() => expect(result.current.data?.runs.map((r) => r.name)).toEqual(['bad fit']));
  });
});

describe('useRunDetails', () => {
  it('polls until the request reaches a final state, then downloads the result', async () => {
    const { project, upload } = await seedProject(server);
    const run = await seedRun(server, project.stamp, upload.stamp, { name: 'Req', state: 'Processing', result: '{"embeddings":[[1,2]]}' });
    const clock = manualTimers();
    const { wrapper } = setup(undefined, clock.timers);
    const { result } = renderHook(() => useRunDetails(server.user.client, project.stamp, run.stamp), { wrapper });
    await waitFor(() => expect(result.current.data?.run.record.state).toBe('Processing'));
    expect(result.current.data?.run.url).toBeNull();
    // The worker finishes the request: the next poll sees it.
    await setRow(server, 'runs', run.stamp, { state: 'Finished' });
    await waitFor(() => expect(clock.pending()).toHaveLength(1));
    await act(() => clock.fire());
    await waitFor(() => expect(result.current.data?.run.record.state).toBe('Finished'));
    const file = await result.current.download();
    expect(file.text).toBe('{"embeddings":[[1,2]]}');
    expect(file.fileName).toMatch(/^ensemble_result_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.json$/);
    // A final state: no further poll is scheduled, so the status was read twice and never again.
    expect(clock.pending()).toEqual([]);
    expect(count('runStatus')).toBe(2);
  }, 20_000);
});

describe('useShrinkRequest', { timeout: 30_000 }, () => {
  it('lists Ready uploads, shows estimate - free credit = amount due, checks the form and asks before creating the quote', async () => {
    const project = await seedEmptyProject(server);
    const ready = await seedUpload(server, project.stamp, { name: 'model.py', items: [{ cols: 3, rows: 10, inputs: 1_000_001 }] });
    const pending = await seedUpload(server, project.stamp, { name: 'late.json', flight: 'Pending', items: [{ state: 'Pending' }] });
    await setCredit(server, server.user.client, 2_000_000, 500_000);
    const clock = manualTimers();
    const { wrapper } = setup(undefined, clock.timers);
    const { result, unmount } = renderHook(() => useShrinkRequest(server.user.client, project.stamp), { wrapper });
    await waitFor(() => expect(result.current.readyUploads.map((r) => r.stamp)).toEqual([ready.stamp]));
    expect(result.current.uploads.map((r) => r.stamp).sort()).toEqual([ready.stamp, pending.stamp].sort());
    expect(result.current.billing?.creditBalance).toBe('1.5');
    expect(result.current.billing?.creditConsumed).toBe('0.5');
    expect(result.current.estimateCents([ready.stamp])).toBe(44);
    expect(result.current.estimateCents([])).toBe(0);
    // One load at mount; the next waits for the poller's 20 s.
    expect(clock.pending()).toEqual([POLL_START_MS]);
    expect(count('rendList')).toBe(1);
    await act(() => result.current.reload());
    expect(count('rendList')).toBe(2);
    expect(result.current.project).toBe(project.name);
    // billing.portalUrl is signed afresh each second: an answer with only a new link is no change, so the wait grows.
    const firstLink = result.current.billing?.portalUrl;
    while (result.current.billing?.portalUrl === firstLink) await act(() => result.current.reload());
    expect(result.current.nextCheckMs).toBeGreaterThanOrEqual(40_000);
    const review = (input: { name: string; desc: string }) => {
      let r: ReturnType<typeof result.current.review> | undefined;
      act(() => void (r = result.current.review(input)));
      return r!;
    };
    expect(review({ name: ' ', desc: '' })).toEqual({
      error: 'Please enter the title between 1 and 60 characters long',
      fieldErrors: { name: 'Please enter the title between 1 and 60 characters long', upload: 'Please select an upload for this request' },
    });
    expect(result.current.price).toBeNull();
    act(() => result.current.choose(pending.stamp));
    expect(result.current.price).toBeNull();
    expect(review({ name: 'S', desc: '' })).toMatchObject({ error: 'Selected upload not found' });
    act(() => result.current.choose(ready.stamp));
    expect(review({ name: 'S', desc: 'x'.repeat(301) })).toMatchObject({ error: 'Description must be at most 300 characters long' });
    // 1,000,001 inputs: 2 started millions, $0.44; the 1.5 million of free credit covers them all.
    expect(result.current).toMatchObject({
      estimate: 44,
      freeCredit: 44,
      amountDue: 0,
      priceText: 'Estimate $0.44 - free credit $0.44 = amount due $0.00',
    });
    expect(result.current.question).toBeNull();
    expect(review({ name: 'S', desc: '' })).toEqual({ question: MESSAGES.shrinkConfirmFree });
    expect(result.current.question).toBe(MESSAGES.shrinkConfirmFree);
    // No: back to the form, nothing made.
    act(() => result.current.cancel());
    expect(result.current.question).toBeNull();
    expect(count('shrinkCreate')).toBe(0);
    review({ name: 'S', desc: '' });
    let made: Awaited<ReturnType<typeof result.current.confirm>> | undefined;
    await act(async () => void (made = await result.current.confirm()));
    const quote = await rows(server)
      .selectFrom('quotes')
      .select(['stamp', 'name', 'rend', 'state', 'cent', 'run'])
      .where('bucket', '=', project.stamp)
      .executeTakeFirstOrThrow();
    expect(made).toEqual({ quoteId: quote.stamp });
    expect(result.current.question).toBeNull();
    // The 1.5 million of free credit covers the 1,000,001 inputs: nothing to pay, and the shrink run starts at once.
    expect(quote).toMatchObject({ name: 'S', rend: ready.stamp, state: 'Paid', cent: 0 });
    expect(quote.run).toBeTruthy();
    const credit = await rows(server)
      .selectFrom('clients')
      .select('credit_used')
      .where('stamp', '=', server.user.client)
      .executeTakeFirstOrThrow();
    expect(credit.credit_used).toBe(1_500_001);

    // With 0.5 million left the same model is billed: $0.44 - $0.22 = $0.22, and the question says so.
    await waitFor(async () => {
      await act(() => result.current.reload());
      expect(result.current.billing?.creditBalance).toBe('0.499999');
    });
    expect(result.current).toMatchObject({
      estimate: 44,
      freeCredit: 22,
      amountDue: 22,
      priceText: 'Estimate $0.44 - free credit $0.22 = amount due $0.22',
    });
    expect(review({ name: 'S2', desc: '' })).toEqual({ question: MESSAGES.shrinkConfirmBilled('$0.22') });
    await act(async () => void (made = await result.current.confirm()));
    const billed = await rows(server)
      .selectFrom('quotes')
      .select(['state', 'cent'])
      .where('stamp', '=', (made as { quoteId: string }).quoteId)
      .executeTakeFirstOrThrow();
    expect(billed).toEqual({ state: 'Unpaid', cent: result.current.amountDue });
    unmount();
  });
});

describe('useCopy', () => {
  it('shows the copied label for one second, and the SPEC message when the clipboard refuses', async () => {
    // The clipboard is the caller's (the browser's or the terminal's); a stand-in here.
    const { wrapper, notes } = setup();
    const { result } = renderHook(() => useCopy(), { wrapper });
    await act(() => result.current.copy('token', 'abc', async () => {}));
    expect(result.current.copied).toBe('token');
    await waitFor(() => expect(result.current.copied).toBeNull(), { timeout: 2000 });
    await act(() => result.current.copy('code', 'pip', () => Promise.reject(new Error('denied'))));
    expect(notes).toEqual([['Failed to copy code.', 'error']]);
    expect(result.current.copied).toBeNull();
  });
});

describe('useAuth', { timeout: 30_000 }, () => {
  it('stores the token on login, shows "Invalid credentials" on refusal, and on logout ends the session on the server and clears it', async () => {
    const { wrapper, tokens } = setup(memoryTokenStore(null));
    const { result } = renderHook(() => useAuth(), { wrapper });
    expect(await result.current.login('', '')).toBe('Please fill out all fields');
    expect(await result.current.login(server.user.email, 'nope')).toBe('Invalid credentials');
    expect(tokens.get()).toBeNull();
    expect(await result.current.login(` ${server.user.email} `, server.user.password)).toBeNull();
    const token = tokens.get();
    expect(token).toBeTruthy();
    // The stored token was the server's own: it opens this user's account (asked past the proxy).
    const direct = new ApiClient({ calls: callTable, baseUrl: server.server.url, tokens: memoryTokenStore(token) });
    expect((await direct.calls.permissions()).map((p) => p.client.stamp)).toEqual([server.user.client]);
    await act(() => result.current.logout());
    expect(tokens.get()).toBeNull();
    expect(server.calls).toEqual(['login', 'login', 'logout']);
    // Logout ended the session on the server: a copy of the token no longer opens anything.
    await expect(
      new ApiClient({ calls: callTable, baseUrl: server.server.url, tokens: memoryTokenStore(token) }).calls.permissions(),
    ).rejects.toMatchObject({
      status: 401,
    });
  });
});

describe('key lists', { timeout: 30_000 }, () => {
  it('show only active keys and check the integration token length before calling', async () => {
    const k1 = await seedApiKey(server, { name: 'k1' });
    const k2 = await seedApiKey(server, { name: 'k2' });
    await rows(server).updateTable('apikeys').set({ active: 0 }).where('clue', '=', k2.clue).execute();
    const { wrapper } = setup();
    const keys = renderHook(() => useApiKeys(server.user.client), { wrapper });
    await waitFor(() => expect(keys.result.current.data?.keys.map((k) => k.clue)).toEqual([k1.clue]));
    const integrations = renderHook(() => useIntegrations(server.user.client), { wrapper });
    await waitFor(() => expect(integrations.result.current.data?.keys).toEqual([]));
    const create = (token: string) => integrations.result.current.create({ name: 'OpenAI key', service: 'OpenAI', token });
    expect(await create('')).toBe('Token must be between 1 and 10,000 characters long');
    expect(await create('t'.repeat(10_001))).toBe('Token must be between 1 and 10,000 characters long');
    expect(count('integrationCreate')).toBe(0);
    expect(await rows(server).selectFrom('integrations').select('clue').where('client', '=', server.user.client).execute()).toEqual([]);
  });

  it('create an integration: notified as created, then listed', async () => {
    const { wrapper, notes } = setup();
    const integrations = renderHook(() => useIntegrations(server.user.client), { wrapper });
    await waitFor(() => expect(integrations.result.current.data?.keys).toEqual([]));
    let outcome: string | null = 'unset';
    await act(
      async () => void (outcome = await integrations.result.current.create({ name: ' OpenAI key ', service: 'OpenAI', token: 'sk-1' })),
    );
    expect(outcome).toBeNull();
    expect(notes.at(-1)).toEqual(['Integration OpenAI key created.', 'success']);
    await waitFor(() => expect(integrations.result.current.data?.keys.map((k) => k.name)).toEqual(['OpenAI key']));
  });
});

describe('useRuns', { timeout: 30_000 }, () => {
  it('notifies "Failed to load requests" when the list fails', async () => {
    const { project } = await seedProject(server);
    server.failing.runList = 500;
    const { wrapper, notes } = setup();
    const { result } = renderHook(() => useRuns(server.user.client, project.stamp), { wrapper });
    await waitFor(() => expect(result.current.error).not.toBeNull());
    expect(notes).toEqual([['Failed to load requests', 'error']]);
  });
});

describe('useUploads', { timeout: 30_000 }, () => {
  it('uploads through the pipeline, reports progress, notifies each file and reloads the list', async () => {
    const project = await seedEmptyProject(server);
    const bytes = new TextEncoder().encode('[[1,2,3,4]]');
    const { wrapper, notes } = setup();
    const source = (name: string) => ({ name, size: bytes.length, stream: () => new Blob([bytes]).stream() });
    const { result } = renderHook(() => useUploads(server.user.client, project.stamp), { wrapper });
    await waitFor(() => expect(result.current.data?.uploads).toEqual([]));
    const progress: UploadProgress[] = [];
    let outcome: UploadOutcome | undefined;
    await act(
      async () =>
        void (outcome = await result.current.upload([source('a.json'), source('b.json')], { onProgress: (p) => progress.push(p) })),
    );
    // Uploaded, and analysis follows in the row: no notice until it ends.
    expect(notes).toEqual([]);
    expect(progress.filter((p) => p.loaded === p.total).map((p) => p.file)).toEqual(['a.json', 'b.json']);
    const upload = await rows(server)
      .selectFrom('rends')
      .select(['stamp', 'name'])
      .where('bucket', '=', project.stamp)
      .executeTakeFirstOrThrow();
    expect(upload.name).toBe('a.json (+1 more)');
    expect(outcome).toEqual({ upload: upload.stamp });
    expect(result.current.data?.uploads.map((u) => u.stamp)).toEqual([upload.stamp]);
    await setRow(server, 'rends', upload.stamp, { flight: 'Ready' });
    await waitFor(() => expect(notes).toEqual([[MESSAGES.uploadReady('a.json, b.json'), 'uploadSuccess']]), { timeout: 10_000 });
    expect(result.current.uploading).toBe(false);
    expect(count('storagePut')).toBe(2);
    // Each file's bytes arrived whole, under the checksum the client sent.
    const items = await rows(server)
      .selectFrom('uploads')
      .select(['stamp', 'name', 'checksum'])
      .where('rend', '=', upload.stamp)
      .orderBy('name')
      .execute();
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(items.map((i) => [i.name, i.checksum])).toEqual([
      ['a.json', sha],
      ['b.json', sha],
    ]);
    for (const i of items) expect(await storedBytes(server, i.stamp)).toEqual({ size: bytes.length, sha256: sha });
  });

  it('shows "Failed to upload files." when the group cannot be created', async () => {
    const project = await seedEmptyProject(server);
    server.failing.rendCreate = 403;
    const { wrapper, notes } = setup();
    const { result } = renderHook(() => useUploads(server.user.client, project.stamp), { wrapper });
    await waitFor(() => expect(result.current.loading).toBe(false));
    let outcome: UploadOutcome | undefined;
    await act(
      async () => void (outcome = await result.current.upload([{ name: 'a.json', size: 1, stream: () => new Blob(['x']).stream() }])),
    );
    // SPEC's message first, then the server's reason.
    expect(outcome?.error).toMatch(/^Failed to upload files\./);
    expect(notes).toEqual([[outcome?.error, 'error']]);
    expect(count('storagePut')).toBe(0);
    expect(await rows(server).selectFrom('rends').select('stamp').where('bucket', '=', project.stamp).execute()).toEqual([]);
  });
  it('leaves the following to a form that does it itself, shows each batch while it runs and says a cancel', async () => {
    const project = await seedEmptyProject(server);
    const bytes = new TextEncoder().encode('[[1,2,3,4]]');
    const { wrapper, notes } = setup();
    const source = { name: 'own.json', size: bytes.length, stream: () => new Blob([bytes]).stream() };
    const { result } = renderHook(() => useUploads(server.user.client, project.stamp), { wrapper });
    await waitFor(() => expect(result.current.loading).toBe(false));
    let outcome: UploadOutcome | undefined;
    await act(async () => void (outcome = await result.current.upload([source], { follow: false })));
    // SPEC's plain notice and the new upload's id; no second notice when it becomes Ready.
    expect(notes).toEqual([[MESSAGES.uploadSucceeded('own.json'), 'uploadSuccess']]);
    const stamp = outcome?.upload;
    expect(result.current.data?.uploads.map((u) => u.stamp)).toEqual([stamp]);
    await setRow(server, 'rends', stamp!, { flight: 'Ready' });
    await act(() => result.current.reload());
    expect(notes).toHaveLength(1);

    // A file that waits: its batch shows while it runs, and its cancel stops it, said once, leaving nothing behind.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // Read once the group exists on the server (the cancel then removes it).
    let reading!: () => void;
    const read = new Promise<void>((r) => (reading = r));
    const slow = {
      name: 'slow.json',
      size: bytes.length,
      stream: () =>
        new ReadableStream<Uint8Array>({
          async pull(c) {
            reading();
            await gate;
            c.enqueue(bytes);
            c.close();
          },
        }),
    };
    let pending!: Promise<UploadOutcome>;
    act(() => void (pending = result.current.upload([slow])));
    await act(() => read);
    expect(result.current.batches).toHaveLength(1);
    expect(result.current.uploading).toBe(true);
    expect(result.current.batches[0]!.progress).toEqual([{ file: 'slow.json', index: 0, loaded: 0, total: bytes.length }]);
    act(() => result.current.batches[0]!.cancel());
    release();
    await act(async () => void (outcome = await pending));
    expect(outcome).toEqual({ error: MESSAGES.uploadCancelled });
    expect(notes.at(-1)).toEqual([MESSAGES.uploadCancelled, undefined]);
    expect(result.current.batches).toEqual([]);
    expect(result.current.uploading).toBe(false);
    expect(result.current.data?.uploads.map((u) => u.stamp)).toEqual([stamp]);
  });
});

describe('useFitRequest', { timeout: 30_000 }, () => {
  it('applies the plan limits, requires a Ready upload and returns the fit run', async () => {
    await setPlan(server, server.user.client, 'Individual');
    const project = await seedEmptyProject(server);
    const ready = await seedUpload(server, project.stamp, { name: 'ready.json' });
    const busy = await seedUpload(server, project.stamp, { name: 'busy.json', flight: 'Processing', items: [{ state: 'Preparing' }] });
    const { wrapper } = setup();
    const { result } = renderHook(() => useFitRequest(server.user.client, project.stamp), { wrapper });
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.plan).toBe('Individual');
    expect(result.current.readyUploads.map((r) => r.stamp)).toEqual([ready.stamp]);
    const base = { name: 'Fit', inputs: 3, outputs: 5, target: 1, explainability: false, upload: ready.stamp, task: 'regression' as const };
    const tooMany = await result.current.submit({ ...base, inputs: 4 });
    expect(tooMany).toEqual({
      error: 'Individual plans are limited to 3 input features',
      fieldErrors: { inputs: 'Individual plans are limited to 3 input features' },
    });
    expect(await result.current.submit({ ...base, upload: busy.stamp })).toMatchObject({ error: 'Selected upload not found' });
    expect(await result.current.submit({ ...base, upload: '' })).toMatchObject({ error: 'Please select an upload for this request' });
    expect(count('runCreate')).toBe(0);
    const made = await result.current.submit(base);
    const runs = await rows(server)
      .selectFrom('runs')
      .select(['stamp', 'function', 'fit', 'rend', 'name'])
      .where('bucket', '=', project.stamp)
      .execute();
    const fit = runs.find((r) => r.function === 'fit');
    const generate = runs.find((r) => r.function === 'generate');
    expect(made).toEqual({ runId: fit?.stamp });
    expect(fit).toMatchObject({ name: 'Fit' });
    expect(generate).toMatchObject({ fit: fit?.stamp, rend: ready.stamp, name: 'Fit (embeddings)' });
    expect(runs).toHaveLength(2);
  });

  it('refuses a Ready upload without a Finished .json file, and chooses a followed upload once it is Ready', async () => {
    await setPlan(server, server.user.client, 'Individual');
    const project = await seedEmptyProject(server);
    const model = await seedUpload(server, project.stamp, { name: 'model.py' });
    const sent = await seedUpload(server, project.stamp, { name: 'new.json', flight: 'Processing', items: [{ state: 'Preparing' }] });
    const { wrapper } = setup();
    const { result } = renderHook(() => useFitRequest(server.user.client, project.stamp), { wrapper });
    await waitFor(() => expect(result.current.loading).toBe(false));
    const base = { name: 'Fit', inputs: 3, outputs: 5, target: 1, explainability: false, task: 'regression' as const };
    expect(await result.current.submit({ ...base, upload: model.stamp })).toEqual({
      error: 'File for generating not found',
      fieldErrors: { upload: 'File for generating not found' },
    });
    expect(count('pileCreate')).toBe(0);
    act(() => result.current.follow(sent.stamp));
    await waitFor(() => expect(result.current.following?.stamp).toBe(sent.stamp));
    expect(result.current.upload).toBe('');
    await setRow(server, 'rends', sent.stamp, { flight: 'Ready' });
    await rows(server).updateTable('uploads').set({ state: 'Finished', proc: 1 }).where('rend', '=', sent.stamp).execute();
    await waitFor(() => expect(result.current.upload).toBe(sent.stamp), { timeout: 10_000 });
    expect(result.current.following).toBeUndefined();
  });
});

describe('useFitRequest: reuse a trained model', { timeout: 30_000 }, () => {
  it("offers the project's Finished models, then the general models, and creates only the generate run; the server refuses other models", async () => {
    const project = await seedEmptyProject(server);
    const upload = await seedUpload(server, project.stamp, { name: 'data.json' });
    const trained = await seedModel(server, project.stamp, upload.stamp, { name: 'Trained' });
    await setRow(server, 'models', trained.stamp, { data: '{}' });
    const pending = await seedModel(server, project.stamp, upload.stamp, { name: 'Training', state: 'Pending' });
    const elsewhere = await seedModel(server, (await seedEmptyProject(server)).stamp, null, { name: 'Other project' });
    await setRow(server, 'models', elsewhere.stamp, { data: '{}' });
    const { wrapper } = setup();
    const { result } = renderHook(() => useFitRequest(server.user.client, project.stamp), { wrapper });
    // The project's own Finished models first, then the general models.
    await waitFor(
      () =>
        expect(result.current.reusable.map((m) => m.stamp)).toEqual([
          trained.stamp,
          'general-tabular-regression',
          'general-tabular-classification',
          'general-openai-text-embedding-3-small',
        ]),
      { timeout: 10_000 },
    );
    expect(await result.current.reuse({ name: '', model: pending.stamp, upload: null })).toEqual({
      error: MESSAGES.titleCreate,
      fieldErrors: { name: MESSAGES.titleCreate, model: MESSAGES.selectModel, upload: MESSAGES.selectUpload },
    });
    expect(count('runCreate')).toBe(0);
    const made = await result.current.reuse({ name: 'Reused', model: trained.stamp, upload: upload.stamp });
    const runs = await rows(server)
      .selectFrom('runs')
      .select(['stamp', 'function', 'model', 'rend', 'name'])
      .where('bucket', '=', project.stamp)
      .execute();
    expect(runs).toEqual([
      { stamp: (made as { runId: string }).runId, function: 'generate', model: trained.stamp, rend: upload.stamp, name: 'Reused' },
    ]);
    // A general model is reused the same way: only the generate run, with no fit run behind it.
    const general = (await result.current.reuse({ name: 'General', model: 'general-tabular-classification', upload: upload.stamp })) as {
      runId: string;
    };
    expect(
      await rows(server).selectFrom('runs').select(['function', 'model', 'fit']).where('stamp', '=', general.runId).executeTakeFirst(),
    ).toEqual({ function: 'generate', model: 'general-tabular-classification', fit: null });
    // The server takes only a Finished model of the same project.
    const api = apiClient(server);
    const refused = (fit: string) =>
      api.calls.runCreate({ bucket: project.stamp, function: 'generate', rend: upload.stamp, fit, name: 'X' }).catch((e) => e);
    expect(await refused(pending.stamp)).toMatchObject({
      status: 409,
      serverMessage: 'Training is Pending: only a Finished model can be reused. Wait for it to finish, or train a new model.',
    });
    expect(await refused(elsewhere.stamp)).toMatchObject({ status: 404 });
  });
});

describe('models, quotes and billing', { timeout: 30_000 }, () => {
  it('loads general and own models together and renames an own model', async () => {
    // The general models are the server's own (no project), offered to every account.
    const general = await rows(server)
      .selectFrom('models')
      .select('stamp')
      .where('bucket', 'is', null)
      .where('active', '=', 1)
      .orderBy('created_at')
      .orderBy('seq')
      .execute();
    expect(general.map((m) => m.stamp)).toEqual([
      'general-tabular-regression',
      'general-tabular-classification',
      'general-openai-text-embedding-3-small',
    ]);
    const project = await seedEmptyProject(server);
    const own = await seedModel(server, project.stamp, null, { name: 'own1' });
    const { wrapper } = setup();
    const { result } = renderHook(() => useModels(server.user.client, project.stamp), { wrapper });
    await waitFor(() => expect(result.current.data?.general.map((m) => m.stamp)).toEqual(general.map((m) => m.stamp)));
    expect(result.current.data?.own.map((m) => m.stamp)).toEqual([own.stamp]);
    expect(await result.current.rename(own.stamp, ' New name ')).toBeNull();
    expect(count('modelRename')).toBe(1);
    expect((await rows(server).selectFrom('models').select('name').where('stamp', '=', own.stamp).executeTakeFirstOrThrow()).name).toBe(
      'New name',
    );
    await waitFor(() => expect(result.current.data?.own.map((m) => m.name)).toEqual(['New name']));
  });

  it('shows "Failed to load quote data." when the quote cannot be read, and billing when it can', async () => {
    const project = await seedEmptyProject(server);
    // Unpaid quotes are what the account owes.
    await seedQuote(server, project.stamp, null, { cent: 100 });
    await seedQuote(server, project.stamp, null, { cent: 50 });
    await seedQuote(server, project.stamp, null, { cent: 999, state: 'Paid' });
    const { wrapper, notes } = setup();
    const quote = renderHook(() => useQuoteDetails(server.user.client, project.stamp, 'q_missing'), { wrapper });
    await waitFor(() => expect(quote.result.current.error?.display).toBe('Failed to load quote data.'));
    expect(quote.result.current.error?.status).toBe(404);
    expect(notes).toEqual([['Failed to load quote data.', 'error']]);
    const billing = renderHook(() => useBilling(server.user.client), { wrapper });
    await waitFor(() => expect(billing.result.current.data?.accountCentBalance).toBe(150));
  });
});

describe('removing many, quick search and related requests', { timeout: 30_000 }, () => {
  it('removeMany removes several projects with one notice, and its one Undo restores them all', async () => {
    const a = await seedEmptyProject(server, { name: 'Many A' });
    const b = await seedEmptyProject(server, { name: 'Many B' });
    const { wrapper, notes, actions } = setup();
    const { result } = renderHook(() => useProjects(server.user.client), { wrapper });
    await waitFor(() => expect(result.current.data?.projects.map((p) => p.name)).toEqual(expect.arrayContaining(['Many A', 'Many B'])));
    await act(async () => expect(await result.current.removeMany!([a.stamp, b.stamp])).toBeNull());
    expect((await projectRow(a.stamp)).active).toBe(0);
    expect((await projectRow(b.stamp)).active).toBe(0);
    expect(notes).toContainEqual(['2 projects removed.', 'success']);
    await act(async () => actions.get('2 projects removed.')!.run());
    expect((await projectRow(a.stamp)).active).toBe(1);
    expect((await projectRow(b.stamp)).active).toBe(1);
    expect(notes).toContainEqual(['2 projects restored.', 'success']);
  });

  it('the quick search offers screens, projects and their requests, matched by every word typed', async () => {
    const { project, upload } = await seedProject(server);
    await seedRun(server, project.stamp, upload.stamp, { name: 'Nightly embedding' });
    const { wrapper } = setup();
    const params = { clientId: server.user.client };
    const { result } = renderHook(() => useJumpTargets(params, true), { wrapper });
    await waitFor(() => expect(result.current.targets.some((t) => t.kind === 'Request' && t.label === 'Nightly embedding')).toBe(true));
    expect(matchJumps(result.current.targets, 'night emb')[0]).toMatchObject({ kind: 'Request', label: 'Nightly embedding' });
    expect(matchJumps(result.current.targets, 'projects')[0]).toMatchObject({
      kind: 'Screen',
      path: `/client/${server.user.client}/projects`,
    });
    expect(matchJumps(result.current.targets, 'zzzz')).toEqual([]);
  });

  it('a generate finds the fit that trained its model, and the fit its generates', async () => {
    const project = await seedEmptyProject(server);
    const upload = await seedUpload(server, project.stamp);
    const fit = await seedRun(server, project.stamp, upload.stamp, { name: 'Trainer', function: 'fit', state: 'Finished' });
    const gen = await seedRun(server, project.stamp, upload.stamp, { name: 'Applier', function: 'generate', state: 'Finished' });
    await setRow(server, 'runs', gen.stamp, { fit: fit.stamp });
    const { wrapper } = setup();
    const fromGen = renderHook(() => useRelatedRuns(project.stamp, { stamp: gen.stamp, function: 'generate', fit: fit.stamp }), {
      wrapper,
    });
    await waitFor(() => expect(fromGen.result.current.source?.name).toBe('Trainer'));
    const fromFit = renderHook(() => useRelatedRuns(project.stamp, { stamp: fit.stamp, function: 'fit', fit: null }), { wrapper });
    await waitFor(() => expect(fromFit.result.current.generates.map((r) => r.name)).toEqual(['Applier']));
  });
});
