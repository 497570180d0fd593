// What a finished sign-in answers (login, its second step, sign-up): the user's clients and projects and a new session.
import type { CallResponse } from '@portal/core';
import { memberClientStamps } from '../access';
import { projectsWithCounts } from './projects';
import { clientView } from '../views';
import type { Services } from '../services';
import { knownAddress, type SessionSeen } from '../auth/sessions';
import { accountEvent } from './account';
import { mailAccount, type MailServices } from './proof';
import type { FastifyBaseLogger } from 'fastify';

/** The address and user agent of a request, as the server sees them (behind a trusted proxy: the forwarded address). */
export const seenBy = (req: { ip: string; headers: Record<string, unknown> }): SessionSeen => ({
  address: req.ip || null,
  userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null,
});

export async function loginResponse(
  s: MailServices & Pick<Services, 'sessions'>,
  user: { stamp: string; email: string; username: string },
  signin = false,
  seen: SessionSeen = {},
  log?: FastifyBaseLogger,
): Promise<CallResponse<'signup'>> {
  const caller = { kind: 'user' as const, ...user };
  // Every sign-in is an event of the user's own log (never of a client's audit log, which owners read); one from an
  // address the account has not signed in from (in KNOWN_ADDRESS_DAYS) says so and is mailed.
  if (signin) {
    const known = !seen.address || (await knownAddress(s.db, user.stamp, seen.address));
    await accountEvent(s.db, user, known ? 'signin' : 'signin.new-address', seen.address ?? '', seen.userAgent ?? '');
    if (!known && log) {
      mailAccount(
        s,
        log,
        user.email,
        'A sign-in from a new address',
        `Your account signed in just now from an address it had not signed in from before: ${seen.address}` +
          (seen.userAgent ? `, with ${seen.userAgent}` : '') +
          '.\nYou can see where your account is signed in, and end a session, on your account page.',
      );
    }
  }
  const stamps = await memberClientStamps(s.db, caller);
  const clients = stamps.length
    ? await s.db.selectFrom('clients').selectAll().where('stamp', 'in', stamps).orderBy('created_at').orderBy('seq').execute()
    : [];
  const projects = await projectsWithCounts(
    s,
    clients.filter((c) => c.active).map((c) => c.stamp),
  );
  return {
    login: { client: { list: clients.map(clientView) }, bucket: { list: projects }, user },
    token: await s.sessions.start({ sub: user.stamp, email: user.email, username: user.username }, undefined, seen),
  };
}
