// Sign-in commands: login, logout, signup, whoami, and password reset-start / reset-finish.
import type { Command } from 'commander';
import {
  MESSAGES,
  checkOtp,
  checkPassword,
  checkPasswordMatch,
  checkSignup,
  firstError,
  needsOtp,
  readClaims,
  resetTokenFrom,
  tokenExpiry,
  LENGTHS,
  loadStartFacts,
  nextStartStep,
  showsGetStarted,
  startDismissKey,
  startSteps,
  type ApiClient,
  type Client,
} from '@portal/core';
import type { Deps, Session } from './context';
import { act, examples, time as formatTime } from './common';
import { DEFAULT_API, originOf, type Store } from '../store';
import { CliError, EXIT, usageError } from './errors';
import { readAll } from './prompt';

/** After a sign-in: the API base used becomes the default, and the account is kept when there is only one. */
async function remember(s: Session, clients: { stamp: string }[]): Promise<void> {
  const store = await s.store();
  if (s.opts.api || s.deps.env.PORTAL_API) store.set('api', await s.baseUrl());
  const host = await s.host();
  host.set('client', clients.length === 1 ? clients[0].stamp : undefined);
  host.set('project', undefined);
}

/**
 * After a sign-in on an account still on its way to a first result: the next "Get started" step and its command
 * (core's steps, the same as the web's page and the terminal UI's first screen). Best effort: a sign-in never fails
 * for it, and a path put away in the terminal UI stays away.
 */
async function printNextStep(s: Session, api: ApiClient, token: string, clients: readonly Client[]): Promise<void> {
  const client = clients[0];
  if (!client || s.out.json) return;
  try {
    const steps = startSteps(await loadStartFacts(api, client));
    const key = startDismissKey(String(readClaims(token)?.sub ?? ''), client.stamp);
    const next = nextStartStep(steps);
    if (!next || !showsGetStarted(steps, (await s.host()).startDismissals.get(key))) return;
    s.out.notice(`Next: ${next.label.toLowerCase()}: ${next.command}`);
  } catch {
    // The hint is extra: the sign-in itself is done.
  }
}

/** One stored sign-in as `portal auth status` shows it. */
export interface SignIn {
  origin: string;
  email: string | null;
  username: string | null;
  /** Epoch seconds, or null when the token carries no expiry. */
  expiresAt: number | null;
  expired: boolean;
  /** The origin used when neither --api nor PORTAL_API says. */
  default: boolean;
  /** Where the token comes from: the config file, or the PORTAL_TOKEN variable (which then wins). */
  source: 'config' | 'PORTAL_TOKEN';
}

function signIn(origin: string, token: string, nowMs: number, isDefault: boolean, source: SignIn['source']): SignIn {
  const claims = readClaims(token) ?? {};
  const expiresAt = tokenExpiry(token);
  return {
    origin,
    email: typeof claims.email === 'string' ? claims.email : null,
    username: typeof claims.username === 'string' ? claims.username : null,
    expiresAt,
    expired: expiresAt !== null && expiresAt * 1000 <= nowMs,
    default: isDefault,
    source,
  };
}

function signIns(store: Store, defaultOrigin: string, nowMs: number): SignIn[] {
  return store
    .hosts()
    .filter(([, entry]) => !!entry.token)
    .map(([origin, entry]) => signIn(origin, entry.token!, nowMs, origin === defaultOrigin, 'config'));
}

const defaultOriginOf = (store: Store) => originOf(store.get('api') ?? DEFAULT_API);
const who = (i: SignIn) => [i.email, i.username && `(${i.username})`].filter(Boolean).join(' ') || 'a client API key';

/** Makes this origin the default server (null: none, back to the built-in default) and says which. */
function makeDefault(s: Session, store: Store, next: SignIn | null, base?: string): void {
  store.set('api', next ? (base ?? next.origin) : undefined);
  s.out.notice(
    next
      ? `The default server is now ${next.origin} (${who(next)}).`
      : `No other server is signed in: the default is now none (${DEFAULT_API} until you sign in with portal login --api ORIGIN).`,
  );
}

function expiry(i: SignIn, nowMs: number): string {
  if (i.expiresAt === null) return 'no expiry';
  if (i.expired) return `expired ${formatTime(i.expiresAt)}`;
  const minutes = Math.round((i.expiresAt * 1000 - nowMs) / 60_000);
  const left = minutes >= 120 ? `${Math.round(minutes / 60)} h` : `${minutes} min`;
  return `${formatTime(i.expiresAt)} (in ${left})`;
}

export function register(program: Command, deps: Deps): void {
  program
    .command('login')
    .description('Sign in; the token is kept in your config folder (mode 0600)')
    .option('--email <email>', 'your email address')
    .option('--password-stdin', 'read the password from standard input')
    .option('--otp <code>', 'two-factor sign-in: the code from your authenticator app, or a recovery code')
    .option('--otp-stdin', 'read the two-factor code from standard input (the line after the password with --password-stdin)')
    .addHelpText(
      'after',
      examples(
        'portal login',
        'echo "$PORTAL_PASSWORD" | portal login --email ada@example.com --password-stdin',
        'printf "%s\\n%s\\n" "$PORTAL_PASSWORD" "$CODE" | portal login --email ada@example.com --password-stdin --otp-stdin',
      ),
    )
    .action(
      act(deps, async (s, opts: { email?: string; passwordStdin?: boolean; otp?: string; otpStdin?: boolean }) => {
        if (opts.otp !== undefined && opts.otpStdin) throw usageError('Give the code with --otp or --otp-stdin, not both');
        const email = (await s.need(opts.email, '--email', 'Email')).trim();
        // Standard input is read once: the password is its first line and the code its second when both come from it.
        let lines: Promise<string[]> | undefined;
        const stdinLine = async (i: number) => ((await (lines ??= readAll(s.deps.stdin).then((t) => t.split(/\r?\n/))))[i] ?? '').trim();
        const password =
          opts.passwordStdin && opts.otpStdin ? await stdinLine(0) : await s.secret(opts.passwordStdin, '--password-stdin', 'Password');
        if (!email || !password) throw usageError('Both the email and the password are required');
        const api = await s.api();
        let res = await api.calls.login({ email, password });
        if (needsOtp(res)) {
          const code = opts.otpStdin
            ? await stdinLine(opts.passwordStdin ? 1 : 0)
            : await s.need(opts.otp, '--otp', 'Two-factor code (authenticator app or recovery code)');
          const problem = checkOtp(code);
          if (problem) throw new CliError(problem);
          res = await api.calls.loginOtp({ challenge: res.otp.challenge, code });
        }
        const login = res.login;
        await remember(s, login.client.list);
        await s.save();
        const names = login.client.list.map((c) => c.name).join(', ');
        s.out.done(login, `Signed in as ${email}${names ? ` (${names})` : ''}`);
        await printNextStep(s, api, res.token, login.client.list);
      }),
    );

  program
    .command('logout')
    .description('Sign out of one server (--api, else the default one): ends the session there and removes its stored token')
    .addHelpText('after', examples('portal logout', 'portal logout --api https://staging.example.com'))
    .action(
      act(deps, async (s) => {
        const store = await s.store();
        const base = await s.baseUrl();
        const host = store.host(base);
        // The stored token's session ends on the server, so a copy of the token (a backup, another shell) is worthless too.
        if (host.tokens.get()) {
          const api = await s.deps.makeApi({ ...(await s.apiOptions()), tokens: host.tokens });
          const { ended, error } = await api.logout();
          if (!ended)
            s.out.notice(`The server could not end the session (${error?.detail}): the token is removed here and expires on its own.`);
        }
        // Every other server's sign-in stays; signing out of the default one makes another signed-in server (or none)
        // the default, so the next command does not go to a server with no sign-in.
        const wasDefault = host.origin === defaultOriginOf(store);
        store.forget(base);
        const others = wasDefault ? signIns(store, '', s.deps.now()) : [];
        s.out.done(
          { ok: true, origin: host.origin, default: wasDefault ? (others[0]?.origin ?? null) : defaultOriginOf(store) },
          `Signed out of ${host.origin}`,
        );
        if (wasDefault) makeDefault(s, store, others[0] ?? null);
        if (s.deps.env.PORTAL_TOKEN) s.out.notice('PORTAL_TOKEN is still set in your environment and is used while it is.');
      }),
    );

  program
    .command('signup')
    .description('Create a user and an account (named after your company), then sign in')
    .option('--email <email>', 'your email address')
    .option('--username <name>', `${LENGTHS.username} letters, digits, dashes or underscores`)
    .option('--name <company>', `company name, ${LENGTHS.company} characters`)
    .option('--password-stdin', 'read the password from standard input')
    .option('--accept-terms', 'agree to the privacy policy and terms of service')
    .addHelpText(
      'after',
      examples(
        'portal signup',
        'echo "$PW" | portal signup --email ada@example.com --username ada_l --name "Analytical Engines" --password-stdin --accept-terms',
      ),
    )
    .action(
      act(deps, async (s, opts: { email?: string; username?: string; name?: string; passwordStdin?: boolean; acceptTerms?: boolean }) => {
        const email = (await s.need(opts.email, '--email', 'Email')).trim();
        const username = await s.need(opts.username, '--username', 'Username');
        const name = await s.need(opts.name, '--name', 'Company name');
        const password = await s.secret(opts.passwordStdin, '--password-stdin', 'Password');
        const confirm = opts.passwordStdin ? password : await s.deps.prompter!.ask('Confirm password: ', { secret: true });
        let terms = !!opts.acceptTerms;
        if (!terms && s.interactive)
          terms = /^y(es)?$/i.test((await s.deps.prompter!.ask('Do you agree to the privacy policy and terms of service? (y/N): ')).trim());
        if (!terms && !s.interactive) throw usageError(`${MESSAGES.terms} (--accept-terms)`);
        const problem = firstError(checkSignup({ email, username, name, password, confirm, terms }));
        if (problem) throw new CliError(problem);
        const api = await s.api();
        const res = await api.calls.signup({ email, username, password, name: name.trim() });
        await remember(s, res.login.client.list);
        s.out.done(res.login, `Signed up and signed in as ${email}`);
        await printNextStep(s, api, res.token, res.login.client.list);
      }),
    );

  program
    .command('whoami')
    .description('Show who is signed in, on which API, with which accounts')
    .addHelpText('after', examples('portal whoami', 'portal whoami --json'))
    .action(
      act(deps, async (s) => {
        const tokens = await s.tokens();
        const token = tokens.get();
        if (!token) throw new CliError(`${MESSAGES.tokenMissing}: ${await s.signInHint()}`, EXIT.auth);
        const clients = await s.clients();
        const claims = readClaims(tokens.get() ?? token) ?? {};
        const api = await s.baseUrl();
        const who = { email: String(claims.email ?? ''), username: String(claims.username ?? ''), api, clients };
        s.out.object(who, [
          ['Email', who.email],
          ['Username', who.username],
          ['API', api],
          ['Accounts', clients.map((c) => `${c.name} (${c.stamp})`).join(', ')],
        ]);
      }),
    );

  const auth = program
    .command('auth')
    .description('Your sign-ins: one per server (API origin)')
    .addHelpText('after', examples('portal auth status', 'portal auth status --json'));

  auth
    .command('status')
    .description('List the servers you are signed in to: origin, user and token expiry (* marks the default)')
    .addHelpText('after', examples('portal auth status', "portal auth status --json --jq '.[].origin'"))
    .action(
      act(deps, async (s) => {
        const store = await s.store();
        const now = s.deps.now();
        const fromEnv = s.envToken();
        const origin = originOf(await s.baseUrl());
        const list = [
          ...(fromEnv ? [signIn(origin, fromEnv, now, true, 'PORTAL_TOKEN')] : []),
          ...signIns(store, fromEnv ? '' : defaultOriginOf(store), now),
        ];
        if (list.length === 0 && !s.out.json)
          throw new CliError(`${MESSAGES.tokenMissing}: not signed in to any server (portal login)`, EXIT.auth);
        if (fromEnv)
          s.out.notice(
            `Using the token in PORTAL_TOKEN for ${origin} (${who(list[0])}): the stored sign-ins are not used while it is set.`,
          );
        s.out.list<SignIn>(
          list,
          [
            { header: '', get: (i) => (i.default ? '*' : ' ') },
            { header: 'Origin', get: (i) => i.origin },
            { header: 'User', get: who },
            { header: 'Token', get: (i) => (i.source === 'PORTAL_TOKEN' ? 'PORTAL_TOKEN' : 'stored') },
            { header: 'Token expires', get: (i) => expiry(i, now) },
          ],
          '',
        );
      }),
    );

  auth
    .command('token')
    .description('Print the token of the current server (PORTAL_TOKEN when set), for scripts')
    .addHelpText(
      'after',
      examples('portal auth token', 'curl -H "Authorization: Bearer $(portal auth token)" http://localhost:8080/api/user/permission'),
    )
    .action(
      act(deps, async (s) => {
        const token = (await s.tokens()).get();
        if (!token) throw new CliError(`${MESSAGES.tokenMissing}: ${await s.signInHint()}`, EXIT.auth);
        s.deps.stdout.write(`${token}\n`);
      }),
    );

  auth
    .command('switch')
    .description('Change the default server to another one you are signed in to (--api ORIGIN, else the other one, or a choice)')
    .addHelpText('after', examples('portal auth switch', 'portal auth switch --api https://staging.example.com'))
    .action(
      act(deps, async (s) => {
        const store = await s.store();
        const current = defaultOriginOf(store);
        const list = signIns(store, current, s.deps.now());
        if (list.length === 0) throw new CliError(`${MESSAGES.tokenMissing}: not signed in to any server (portal login)`, EXIT.auth);
        let next: SignIn | undefined;
        let base: string | undefined;
        if (s.opts.api) {
          base = await s.baseUrl();
          const wanted = originOf(await s.baseUrl());
          next = list.find((i) => i.origin === wanted);
          if (!next) throw new CliError(`Not signed in to ${wanted}: sign in with portal login --api ${wanted}`, EXIT.auth);
        } else {
          const others = list.filter((i) => !i.default);
          if (others.length === 0) throw new CliError(`${current} is the only server you are signed in to: it stays the default.`);
          if (others.length === 1) next = others[0];
          else if (!s.interactive)
            throw usageError(`Choose the server with --api ORIGIN, one of: ${others.map((i) => i.origin).join(', ')}`);
          else {
            s.out.notice(others.map((i, n) => `  ${n + 1}. ${i.origin} (${who(i)})`).join('\n'));
            const answer = (await s.deps.prompter!.ask(`Default server (1-${others.length}): `)).trim();
            next = others[Number(answer) - 1];
            if (!/^\d+$/.test(answer) || !next) throw new CliError('Cancelled', EXIT.usage);
          }
        }
        makeDefault(s, store, next!, base);
        await s.save();
        if (s.out.json) s.out.printJson({ ...next, default: true });
      }),
    );

  auth
    .command('sessions')
    .description('List where you are signed in (created, last used, address, user agent); end one or every other')
    .option('--end <id>', 'end the session with this ID (its token stops working at once)')
    .option('--end-others', 'end every session but this one')
    .addHelpText('after', examples('portal auth sessions', 'portal auth sessions --end s_abc123', 'portal auth sessions --end-others'))
    .action(
      act(deps, async (s, opts: { end?: string; endOthers?: boolean }) => {
        if (opts.end !== undefined && opts.endOthers) throw usageError('Use --end ID or --end-others, not both');
        const api = await s.api();
        if (opts.end !== undefined) {
          const r = await api.calls.sessionEnd({ id: opts.end });
          s.out.done(r, `Ended session ${opts.end}`);
          return;
        }
        if (opts.endOthers) {
          const r = await api.calls.sessionEndOthers();
          s.out.done(r, r.ended === 1 ? 'Ended 1 other session' : `Ended ${r.ended} other sessions`);
          return;
        }
        const { session } = await api.calls.sessionList();
        s.out.list(
          session.list,
          [
            { header: 'ID', get: (x) => (x.current ? `${x.id} (this session)` : x.id) },
            { header: 'Created', get: (x) => formatTime(x.createdAt) },
            { header: 'Last used', get: (x) => formatTime(x.lastUsedAt) },
            { header: 'Address', get: (x) => x.address ?? '' },
            { header: 'User agent', get: (x) => x.userAgent ?? '' },
          ],
          'No sessions',
        );
      }),
    );

  const password = program
    .command('password')
    .description('Reset a forgotten password')
    .addHelpText(
      'after',
      examples('portal password reset-start --email ada@example.com', 'portal password reset-finish --token "$TOKEN_FROM_THE_EMAIL"'),
    );

  password
    .command('reset-start')
    .description('Send a password-reset link to your email')
    .option('--email <email>', 'your email address')
    .addHelpText('after', examples('portal password reset-start --email ada@example.com'))
    .action(
      act(deps, async (s, opts: { email?: string }) => {
        const email = (await s.need(opts.email, '--email', 'Email')).trim();
        const api = await s.api();
        const res = await api.calls.resetStart({ email });
        s.out.done(res, MESSAGES.resetStarted);
      }),
    );

  password
    .command('reset-finish')
    .description('Set a new password with the token from the reset email')
    .option('--token <token>', 'the link from the email, or its token')
    .option('--password-stdin', 'read the new password from standard input')
    .addHelpText(
      'after',
      examples(
        'portal password reset-finish --token "$TOKEN"',
        'echo "$NEW_PW" | portal password reset-finish --token "$TOKEN" --password-stdin',
      ),
    )
    .action(
      act(deps, async (s, opts: { token?: string; passwordStdin?: boolean }) => {
        const token = resetTokenFrom(await s.need(opts.token, '--token', 'Link or token from the email'));
        const pw = await s.secret(opts.passwordStdin, '--password-stdin', 'New password');
        const confirm = opts.passwordStdin ? pw : await s.deps.prompter!.ask('Confirm password: ', { secret: true });
        const problem = checkPassword(pw) ?? checkPasswordMatch(pw, confirm);
        if (problem) throw new CliError(problem);
        const api = await s.api();
        const res = await api.calls.resetFinish({ token, password: pw });
        s.out.done(res, `${MESSAGES.passwordChanged} Sign in with portal login.`);
      }),
    );
}
