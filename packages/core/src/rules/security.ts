// Account security: two-factor sign-in's texts and the shape of its codes, shared by every door and the server.

/** A code from an authenticator app: six digits (spaces a user copies with it are dropped). */
export const OTP_DIGITS = 6;
/** A recovery code: ten lower-case letters and digits, shown as two groups of five (`k3x9p-2mq7z`). */
export const RECOVERY_CODE_COUNT = 10;
/** How long the second step of a sign-in may wait for its code. */
export const OTP_CHALLENGE_TTL_S = 5 * 60;
/** Authenticator codes an account may send in a window before it slows down (recovery codes are always looked at). */
export const OTP_MAX_FAILURES = 5;
export const OTP_FAILURE_WINDOW_S = 15 * 60;
/** Past OTP_MAX_FAILURES: one authenticator code per this many seconds for the account. */
export const OTP_SLOW_S = 30;
/** Codes one sign-in's second step may try; then the sign-in starts again with the password. */
export const OTP_CHALLENGE_TRIES = 5;

export const SECURITY_MESSAGES = {
  otpRequired: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  otpInvalid: 'That code is not right. Enter the current 6-digit code from your authenticator app, or an unused recovery code.',
  otpFormat: 'Enter the 6-digit code from your authenticator app, or a recovery code like k3x9p-2mq7z.',
  otpTooMany: `Too many wrong codes. Wait ${OTP_SLOW_S} seconds and enter a new code, or enter one of your recovery codes.`,
  otpChallengeExpired: 'The sign-in took too long. Sign in again with your email and password.',
  otpChallengeSpent: 'Too many wrong codes for this sign-in. Sign in again with your email and password.',
  otpAlreadyOn: 'Two-factor sign-in is already on. Turn it off first to set up a new authenticator.',
  otpNotSetUp: 'Start the setup first: scan the QR code, then confirm with a code.',
  otpNotOn: 'Two-factor sign-in is not on.',
  otpEnabled: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe: each works once.',
  otpDisabled: 'Two-factor sign-in is off.',
} as const;

/** A code as typed: spaces and dashes dropped, lower case. */
export const normalOtp = (code: string): string => code.replace(/[\s-]/g, '').toLowerCase();

/** Whether a (normalised) code is an authenticator code rather than a recovery code. */
export const isTotpCode = (code: string): boolean => new RegExp(`^\\d{${OTP_DIGITS}}$`).test(code);

/** null when the code has the shape of an authenticator or recovery code, else what to fix. */
export function checkOtp(code: string): string | null {
  const c = normalOtp(code);
  return isTotpCode(c) || /^[a-z0-9]{10}$/.test(c) ? null : SECURITY_MESSAGES.otpFormat;
}

/** Whether the password step's answer asks for the second step (two-factor sign-in on) rather than carrying a session. */
export const needsOtp = <T extends object>(r: T | { otp: { challenge: string } }): r is { otp: { challenge: string; expiresAt: number } } =>
  'otp' in r && !('token' in r);
