// Core's account-page hooks (usePasswordChange, useEmailChange, useEmailConfirm, useAccountExport, useAccountDelete)
// against the real server, rendered by a bare probe: what each section shows before, during and after its call.
import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { Text } from 'ink';
import { ACCOUNT_MESSAGES, MESSAGES, memoryTokenStore, type ApiClient } from '@portal/core';
import { PortalProvider } from '@portal/core/react/context';
import { useAccountDelete, useAccountExport, useEmailChange, useEmailConfirm, usePasswordChange } from '@portal/core/react';
import { mailTo } from '@portal/testkit/harness';
import { withTestApi } from '@portal/testkit/api';
import { nodeApi } from '../cli/client';

const server = withTestApi({ worker: false });
const NEW_PW = 'An0ther-secret!';

/** Renders a hook and hands its latest value out. */
function probe<T>(api: ApiClient, hook: () => T): { get(): T; until(check: (v: T) => boolean): Promise<T>; unmount(): void } {
  let latest: T;
  function Probe() {
    latest = hook();
    return <Text>.</Text>;
  }
  const inst = render(
    <PortalProvider api={api} notifier={{ notify: () => undefined }}>
      <Probe />
    </PortalProvider>,
  );
  return {
    get: () => latest,
    async until(check) {
      const end = Date.now() + 15_000;
      while (!check(latest)) {
        if (Date.now() > end) throw new Error(`The hook never reached the state: ${JSON.stringify(latest)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return latest;
    },
    unmount: inst.unmount,
  };
}

const apiFor = (token: string | null) => nodeApi({ baseUrl: server.url, tokens: memoryTokenStore(token) });

describe('account hooks', { timeout: 60_000 }, () => {
  it('usePasswordChange checks with core rules first, then says what the server said or what was done', async () => {
    const h = probe(apiFor(server.user.token), usePasswordChange);
    expect(await h.get().change({ current: '', password: NEW_PW })).toBe(false);
    await h.until((v) => v.problem === ACCOUNT_MESSAGES.passwordRequired);
    await h.get().change({ current: server.user.password, password: 'weak' });
    await h.until((v) => v.problem === MESSAGES.password);
    await h.get().change({ current: server.user.password, password: NEW_PW, confirmation: 'other' });
    await h.until((v) => v.problem === MESSAGES.passwordMismatch);
    await h.get().change({ current: 'Not-the-one1!', password: NEW_PW });
    await h.until((v) => v.problem === ACCOUNT_MESSAGES.passwordWrong);
    expect(await h.get().change({ current: server.user.password, password: NEW_PW, confirmation: NEW_PW })).toBe(true);
    await h.until((v) => v.notice === ACCOUNT_MESSAGES.passwordChanged && v.problem === null && !v.busy);
    h.unmount();
  });

  it('useEmailChange shows the change waiting; useEmailConfirm confirms it with the mailed token', async () => {
    const api = apiFor(server.user.token);
    const h = probe(api, useEmailChange);
    await h.until((v) => v.account?.email === server.user.email && v.account.pendingEmail === null);
    const fresh = `hook-${server.user.username}@example.com`;
    expect(await h.get().request({ email: fresh, password: server.user.password })).toBe(true);
    await h.until((v) => v.account?.pendingEmail?.email === fresh && v.notice === ACCOUNT_MESSAGES.emailSent(fresh));
    const token = decodeURIComponent(/\?token=(\S+)/.exec(await mailTo(server.server.dataDir, fresh))![1]);

    // The link's page works signed out.
    const c = probe(apiFor(null), () => useEmailConfirm(token));
    expect(await c.get().confirm()).toBe(true);
    await c.until((v) => v.email === fresh && v.notice === ACCOUNT_MESSAGES.emailConfirmed(fresh));
    await c.get().confirm();
    await c.until((v) => v.problem === ACCOUNT_MESSAGES.emailLinkInvalid);
    const none = probe(apiFor(null), () => useEmailConfirm(null));
    await none.get().confirm();
    await none.until((v) => v.problem === ACCOUNT_MESSAGES.emailLinkInvalid);
    for (const p of [h, c, none]) p.unmount();
  });

  it('useAccountExport hands the file to save; useAccountDelete signs the door out', async () => {
    const api = apiFor(server.user.token);
    const e = probe(api, useAccountExport);
    expect(await e.get().start()).toBe(true);
    const done = await e.until((v) => v.file !== null);
    expect(done.file!.name).toMatch(new RegExp(`^portal-${server.user.username}-\\d{4}-\\d\\d-\\d\\d\\.json$`));
    expect(JSON.parse(done.file!.text).user.email).toBe(server.user.email);
    expect(done.notice).toBe(ACCOUNT_MESSAGES.exported(done.file!.name));
    e.get().done();
    await e.until((v) => v.file === null);

    const d = probe(api, useAccountDelete);
    await d.until((v) => v.needsCode === false);
    await d.get().remove({ password: 'Not-the-one1!' });
    await d.until((v) => v.problem === ACCOUNT_MESSAGES.passwordWrong);
    expect(await d.get().remove({ password: server.user.password })).toBe(true);
    await d.until((v) => v.deleted && v.notice === ACCOUNT_MESSAGES.deleted);
    expect(api.tokens.get()).toBeNull();
    for (const p of [e, d]) p.unmount();
  });
});
