// Sign-in, sign-up, password reset, session refresh and the probes (health, ready): their schemas and their calls of the route table (one module of calls.ts, loaded on its own by the
// API client when a door first makes one of them).
import * as z from 'zod/mini';
import { MESSAGES } from '../../messages';
import { checkCompanyName, checkEmail, checkPassword, checkUsername } from '../../rules/fields';
import { Bucket, PermissionEntry, User } from '../entities';
import { ruled } from '../ruled';
import { LoginOtpBody, OtpChallengeResponse } from '../security';
import { ClientList, Ok, call } from './common';

export const HealthResponse = z.object({ ok: z.literal(true) });
/** Readiness: each part (database, storage, ...) answers 'ok'; a 503 carries the same `checks` with a sentence for the failing part. */
export const ReadyResponse = z.object({ ok: z.literal(true), checks: z.record(z.string(), z.string()) });

export const LoginResponse = z.object({
  login: z.object({
    client: ClientList,
    bucket: z.object({ list: z.array(Bucket) }),
    user: z.optional(User),
  }),
  token: z.string(),
});
/** The password step: a session, or (two-factor sign-in on) a challenge for the second step. */
export const LoginStepResponse = z.union([LoginResponse, OtpChallengeResponse]);
export const SignupBody = z.object({
  email: ruled(checkEmail),
  username: ruled(checkUsername),
  password: ruled(checkPassword),
  name: ruled(checkCompanyName),
});
export const ResetStartBody = z.object({
  email: z.string().check(z.trim(), z.minLength(1, MESSAGES.email), z.maxLength(254, MESSAGES.email)),
});
export const ResetFinishBody = z.object({ password: ruled(checkPassword) });
export const TokenResponse = z.object({ token: z.string() });
/** The permission list arrives as an array or as `permission.list`; both parse to the array. */
export const PermissionResponse = z.union([
  z.array(PermissionEntry),
  z.pipe(
    z.object({ permission: z.object({ list: z.array(PermissionEntry) }) }),
    z.transform((r: { permission: { list: PermissionEntry[] } }) => r.permission.list),
  ),
]);

// ---- the calls ----
export const SESSION_CALLS = {
  health: call({ method: 'GET', path: '/api/health', auth: 'none', response: HealthResponse }),
  ready: call({ method: 'GET', path: '/api/ready', auth: 'none', response: ReadyResponse }),
  login: call({
    method: 'POST',
    path: '/api/user/login',
    auth: 'basic',
    response: LoginStepResponse,
    failure: MESSAGES.invalidCredentials,
  }),
  signup: call({
    method: 'POST',
    path: '/api/user/signup',
    auth: 'none',
    body: SignupBody,
    response: LoginResponse,
    failure: MESSAGES.signupFailed,
  }),
  resetStart: call({
    method: 'POST',
    path: '/api/user/password/reset/start',
    auth: 'none',
    body: ResetStartBody,
    response: Ok,
    failure: MESSAGES.invalidCredentials,
  }),
  resetFinish: call({
    method: 'POST',
    path: '/api/user/password/reset/finish',
    auth: 'reset',
    body: ResetFinishBody,
    response: Ok,
    failure: MESSAGES.invalidCredentials,
  }),
  refresh: call({ method: 'POST', path: '/api/user/refresh', response: TokenResponse }),
  logout: call({ method: 'POST', path: '/api/user/logout', response: Ok }),
  permissions: call({ method: 'GET', path: '/api/user/permission', response: PermissionResponse, failure: MESSAGES.fetchPermissions }),
  // The second step of a sign-in: the challenge the password step gave and a code; answers as login does.
  loginOtp: call({ method: 'POST', path: '/api/user/login/otp', auth: 'none', body: LoginOtpBody, response: LoginResponse }),
} as const;
