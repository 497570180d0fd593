// Schemas of the account-security calls: two-factor sign-in (its second step, setup, confirmation and turning off).
import * as z from 'zod/mini';
import { checkOtp } from '../rules/security';
import { Epoch } from './entities';

/** A code (authenticator or recovery), checked for its shape by core's rule, at most a short line long. */
export const OtpCode = z.string().check(
  z.maxLength(64, 'code: at most 64 characters'),
  z.superRefine((v, ctx) => {
    const message = checkOtp(v);
    if (message) ctx.addIssue({ code: 'custom', message });
  }),
);

/** What the password step answers when the account has two-factor sign-in: a challenge, never a session token. */
export const OtpChallengeResponse = z.object({ otp: z.object({ challenge: z.string(), expiresAt: Epoch }) });
export type OtpChallengeResponse = z.infer<typeof OtpChallengeResponse>;
export const LoginOtpBody = z.object({ challenge: z.string().check(z.maxLength(4096, 'challenge: too long')), code: OtpCode });
export const OtpStatusResponse = z.object({ otp: z.object({ enabled: z.boolean(), recoveryLeft: z.number() }) });
/** A new secret waiting for its first code: the text to type and the otpauth:// URI a QR code carries. */
export const OtpSetupResponse = z.object({ otp: z.object({ secret: z.string(), uri: z.string() }) });
export const OtpCodeBody = z.object({ code: OtpCode });
/** The recovery codes, shown once. */
export const OtpEnableResponse = z.object({ otp: z.object({ recovery: z.array(z.string()) }) });

/** One of the account's sessions as the server saw it: when it began and was last used, from where, with what. */
export const SessionView = z.object({
  id: z.string(),
  createdAt: Epoch,
  lastUsedAt: Epoch,
  address: z.nullable(z.string()),
  userAgent: z.nullable(z.string()),
  current: z.boolean(),
});
export type SessionView = z.infer<typeof SessionView>;
export const SessionListResponse = z.object({ session: z.object({ list: z.array(SessionView) }) });
export const SessionEndBody = z.object({
  id: z.string().check(z.minLength(1, 'id: which session to end'), z.maxLength(64, 'id: at most 64 characters')),
});
/** How many sessions were ended. */
export const SessionEndResponse = z.object({ ended: z.number() });
