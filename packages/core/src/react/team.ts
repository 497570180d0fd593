// One hook per team screen: members (with invitations and roles), the audit log, and accepting an invitation.
import { useCallback, useMemo, useState } from 'react';
import type { AuditEntry, Client, Invite, MailDelivery, Member } from '../contract';
import { readClaims } from '../client';
import { checkEmail } from '../rules';
import {
  AUDIT_PAGE_MAX,
  TEAM_MESSAGES,
  canManageMembers,
  canReadAudit,
  inviteNotice,
  leaveBlocked,
  removeBlocked,
  roleChangeBlocked,
  type Role,
} from '../rules/team';
import { toApiError } from '../loader';
import { auditCsv } from '../format/csv';
import { useAct } from './actions';
import { useApi, useNotify } from './context';
import { callKey, viewKey } from '../query';
import { useChanged, useClientsChanged } from './entityList';
import { useLoad, type Loaded } from './useLoad';
import type { LogPages } from './pager';

const auditPage = (r: { audit: { list: AuditEntry[]; next: string | null } }) => ({ entries: r.audit.list, next: r.audit.next });

/** The signed-in user's id, read from the stored session token. */
function useMe(): string {
  const api = useApi();
  const token = api.tokens.get();
  return useMemo(() => String(readClaims(token ?? '')?.sub ?? ''), [token]);
}

export interface MembersData {
  client: Client;
  members: Member[];
  invites: Invite[];
  /** The signed-in user's id and role in this client. */
  me: string;
  myRole: Role | null;
}

export interface MembersScreen extends Loaded<MembersData> {
  /** Owners invite, withdraw, change roles and remove others. */
  canManage: boolean;
  /** Owners read the audit log. */
  canAudit: boolean;
  /** Why the signed-in user cannot leave (the last owner), or null. */
  leaveBlocked: string | null;
  /** Why this role change is refused, or null (owners only; the last owner stays). */
  roleBlocked(user: string, role: Role): string | null;
  /** Why this removal is refused, or null. */
  removeBlocked(user: string): string | null;
  invite(email: string, role: Role): Promise<string | null>;
  withdraw(invite: string): Promise<string | null>;
  setRole(user: string, role: Role): Promise<string | null>;
  remove(user: string): Promise<string | null>;
  /** Leaves the client; on success the door goes to My Account. */
  leave(): Promise<string | null>;
}

export function useMembers(clientId: string): MembersScreen {
  const api = useApi();
  const act = useAct();
  const notify = useNotify();
  const me = useMe();
  const loaded = useLoad(
    viewKey('memberList', { client: clientId, me }, 'withInvites'),
    async (signal): Promise<MembersData> => {
      const [m, i] = await Promise.all([
        api.calls.memberList({ client: clientId }, { signal }),
        api.calls.inviteList({ client: clientId }, { signal }),
      ]);
      const myRole = m.member.list.find((x) => x.user.stamp === me)?.role ?? null;
      return { client: m.client, members: m.member.list, invites: i.invite.list, me, myRole };
    },
    { failure: TEAM_MESSAGES.loadMembers },
  );
  const { data } = loaded;
  // A change to the team makes every read that shows it old (this list, the permission list, the audit log).
  const reload = useChanged('Member');
  const members = useMemo(() => data?.members ?? [], [data]);
  const myRole = data?.myRole ?? null;
  const done = useCallback(
    async (r: string | null, message: string) => {
      if (r === null) notify(message, 'success');
      return r;
    },
    [notify],
  );
  const emailOf = useCallback((user: string) => members.find((m) => m.user.stamp === user)?.user.email ?? user, [members]);

  const invite = useCallback(
    async (email: string, role: Role) => {
      let delivery: MailDelivery | undefined;
      const failed = await act(
        (canManageMembers(myRole) ? null : TEAM_MESSAGES.ownersOnly) ?? checkEmail(email),
        async () => void ({ delivery } = await api.calls.inviteCreate({ client: clientId, email: email.trim(), role })),
        reload,
      );
      return done(failed, inviteNotice(email.trim(), delivery));
    },
    [act, api, clientId, done, myRole, reload],
  );
  const withdraw = useCallback(
    async (id: string) => done(await act(null, () => api.calls.inviteRemove({ invite: id }), reload), TEAM_MESSAGES.withdrawn),
    [act, api, done, reload],
  );
  const setRole = useCallback(
    async (user: string, role: Role) =>
      done(
        await act(roleChangeBlocked(members, myRole, user, role), () => api.calls.memberRole({ client: clientId, user, role }), reload),
        TEAM_MESSAGES.roleChanged(emailOf(user), role),
      ),
    [act, api, clientId, done, emailOf, members, myRole, reload],
  );
  const remove = useCallback(
    async (user: string) =>
      done(
        await act(removeBlocked(members, me, myRole, user), () => api.calls.memberRemove({ client: clientId, user }), reload),
        TEAM_MESSAGES.removed(emailOf(user)),
      ),
    [act, api, clientId, done, emailOf, me, members, myRole, reload],
  );
  // After leaving, the client is no longer the user's to see: the permission list (the chrome's clients) is read again.
  const left = useClientsChanged();
  const leave = useCallback(
    async () =>
      done(await act(leaveBlocked(members, me), () => api.calls.memberRemove({ client: clientId, user: me }), left), TEAM_MESSAGES.left),
    [act, api, clientId, done, me, members, left],
  );

  return {
    ...loaded,
    canManage: canManageMembers(myRole),
    canAudit: canReadAudit(myRole),
    leaveBlocked: data ? leaveBlocked(members, me) : null,
    roleBlocked: (user, role) => roleChangeBlocked(members, myRole, user, role),
    removeBlocked: (user) => removeBlocked(members, me, myRole, user),
    invite,
    withdraw,
    setRole,
    remove,
    leave,
  };
}

/** What the audit log is narrowed to: '' (or undefined) for any. `from` and `to` are epoch seconds, `to` excluded. */
export interface AuditFilters {
  action: string;
  /** A member's email (or a key's id). */
  actor: string;
  from?: number;
  to?: number;
}

/** The most lines one CSV export walks (pages of AUDIT_PAGE_MAX). */
export const AUDIT_EXPORT_MAX = 10_000;

export interface AuditScreen extends Loaded<{ entries: AuditEntry[]; next: string | null }>, LogPages {
  /** The action shown ('' for all). */
  action: string;
  setAction(action: string): void;
  filters: AuditFilters;
  /** Changes some filters and goes back to the newest page. */
  setFilters(change: Partial<AuditFilters>): void;
  /** Every line that matches the filters (up to AUDIT_EXPORT_MAX), newest first, as CSV. */
  exportCsv(): Promise<string>;
}

/** The client's audit log, newest first, a page at a time (owners only: a member sees the server's 403 sentence). */
export function useAudit(clientId: string, limit?: number, initial?: Partial<AuditFilters>): AuditScreen {
  const api = useApi();
  const [filters, setFilterState] = useState<AuditFilters>(() => ({ action: '', actor: '', ...initial }));
  // The cursors of the pages walked so far: [undefined] is the newest page.
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const { action, actor, from, to } = filters;
  const query = useMemo(
    () => ({ client: clientId, action: action || undefined, actor: actor.trim() || undefined, from, to }),
    [clientId, action, actor, from, to],
  );
  const loaded = useLoad(
    callKey('audit', { ...query, cursor, limit }),
    (signal) => api.calls.audit({ ...query, cursor, limit }, { signal }),
    { failure: TEAM_MESSAGES.loadAudit, select: auditPage, paged: true },
  );
  // The page before, shown while the next arrives, offers no Next of its own.
  const next = loaded.placeholder ? null : (loaded.data?.next ?? null);
  const setFilters = useCallback((change: Partial<AuditFilters>) => {
    setFilterState((f) => ({ ...f, ...change }));
    setCursors([undefined]);
  }, []);
  const exportCsv = useCallback(async () => {
    const all: AuditEntry[] = [];
    let cursor: string | undefined;
    do {
      const r = await api.calls.audit({ ...query, cursor, limit: AUDIT_PAGE_MAX });
      all.push(...r.audit.list);
      cursor = r.audit.next ?? undefined;
    } while (cursor && all.length < AUDIT_EXPORT_MAX);
    return auditCsv(all.slice(0, AUDIT_EXPORT_MAX));
  }, [api, query]);
  return {
    ...loaded,
    action,
    setAction: useCallback((a: string) => setFilters({ action: a }), [setFilters]),
    filters,
    setFilters,
    exportCsv,
    page: cursors.length,
    hasOlder: next !== null,
    older: useCallback(() => {
      if (next) setCursors((c) => [...c, next]);
    }, [next]),
    newer: useCallback(() => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c)), []),
  };
}

export interface InviteScreen {
  /** The client joined, once accepted. */
  joined: Client | null;
  busy: boolean;
  error: string | null;
  accept(): Promise<Client | null>;
}

/** Accepting an invitation from its link: the invitee's own session, the token from the URL. */
export function useInvite(token: string): InviteScreen {
  const api = useApi();
  const notify = useNotify();
  const joined = useClientsChanged();
  const [state, setState] = useState<{ joined: Client | null; busy: boolean; error: string | null }>({
    joined: null,
    busy: false,
    error: null,
  });
  const accept = useCallback(async () => {
    setState((s) => ({ ...s, busy: true, error: null }));
    try {
      const r = await api.calls.inviteAccept({ token });
      // The chrome's clients now include it.
      await joined();
      notify(TEAM_MESSAGES.joined(r.client.name), 'success');
      setState({ joined: r.client, busy: false, error: null });
      return r.client;
    } catch (e) {
      const error = toApiError(e);
      if (!error.isAuth) notify(error.display, 'error');
      setState({ joined: null, busy: false, error: error.display });
      return null;
    }
  }, [api, notify, token, joined]);
  return { ...state, accept };
}
