// Sign-in, sign-up, logout and password reset: the token is stored by the client (a token in any response replaces it).
import { useCallback, useMemo, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toApiError } from '../loader';
import { MESSAGES } from '../messages';
import { checkEmail, checkPassword, checkPasswordMatch, checkSignup, firstError, type SignupInput } from '../rules';
import { useApi, useNotify } from './context';
import { SECURITY_MESSAGES, checkOtp, needsOtp } from '../rules/security';

export interface Auth {
  /**
   * null once signed in, else the message shown; with two-factor sign-in on it answers SECURITY_MESSAGES.otpRequired
   * and `otpPending()` is true until `loginOtp` finishes the sign-in with a code.
   */
  login(email: string, password: string): Promise<string | null>;
  /** The second step: a code from the authenticator app or a recovery code; null once signed in. */
  loginOtp(code: string): Promise<string | null>;
  otpPending(): boolean;
  /** Checks every field, then signs up and in; null on success, else the first message. */
  signup(input: SignupInput): Promise<string | null>;
  /** Ends the session on the server and clears the stored token (the door then goes to the root). */
  logout(): Promise<void>;
  /** null = success: show MESSAGES.resetStarted. */
  resetStart(email: string): Promise<string | null>;
  /** null = success: show MESSAGES.passwordChanged. Pass the confirmation to check that it matches. */
  resetFinish(token: string, password: string, confirm?: string): Promise<string | null>;
}

export interface AuthOptions {
  /**
   * Whether a failure (a check or a call) is also notified. Every door shows the returned message on the form; a
   * door whose form has room for it (the web portal) turns the notice off so the message is not shown twice.
   */
  notifyFailures?: boolean;
}

export function useAuth(options: AuthOptions = {}): Auth {
  const api = useApi();
  const notify = useNotify();
  // Whoever signs in or out next starts from an empty cache: nothing another session read is shown to them.
  const queryClient = useQueryClient();
  const notifyFailures = options.notifyFailures ?? true;
  // The password step's challenge while the sign-in waits for its code.
  const challenge = useRef<string | null>(null);
  const attempt = useCallback(
    async (check: string | null, call: () => Promise<unknown>): Promise<string | null> => {
      if (check) {
        if (notifyFailures) notify(check, 'error');
        return check;
      }
      try {
        await call();
        queryClient.clear();
        return null;
      } catch (e) {
        const error = toApiError(e);
        if (notifyFailures) notify(error.display, 'error');
        return error.display;
      }
    },
    [notify, notifyFailures, queryClient],
  );
  return useMemo<Auth>(
    () => ({
      login: async (email, password) => {
        challenge.current = null;
        const failed = await attempt(email.trim() && password ? null : MESSAGES.fillAllFields, async () => {
          const res = await api.calls.login({ email: email.trim(), password });
          if (needsOtp(res)) challenge.current = res.otp.challenge;
        });
        // Two-factor sign-in on: the password alone signs nobody in; the door asks for the code next.
        return failed ?? (challenge.current ? SECURITY_MESSAGES.otpRequired : null);
      },
      loginOtp: async (code) => {
        const pending = challenge.current;
        if (!pending) return SECURITY_MESSAGES.otpChallengeExpired;
        const failed = await attempt(checkOtp(code), () => api.calls.loginOtp({ challenge: pending, code }));
        if (!failed) challenge.current = null;
        return failed;
      },
      otpPending: () => challenge.current !== null,
      signup: (input) =>
        attempt(firstError(checkSignup(input)), () =>
          api.calls.signup({ email: input.email.trim(), username: input.username, password: input.password, name: input.name.trim() }),
        ),
      logout: async () => {
        const { ended, error } = await api.logout();
        queryClient.clear();
        // Signed out here either way; say so when the server could not end the session (it then lasts until it expires).
        if (!ended)
          notify(`Signed out on this device, but the server could not end the session: ${error?.display ?? MESSAGES.unexpected}`, 'error');
      },
      resetStart: (email) => attempt(checkEmail(email), () => api.calls.resetStart({ email: email.trim() })),
      resetFinish: (token, password, confirm) =>
        attempt(
          (token ? null : MESSAGES.invalidCredentials) ??
            checkPassword(password) ??
            (confirm === undefined ? null : checkPasswordMatch(password, confirm)),
          () => api.calls.resetFinish({ token, password }),
        ),
    }),
    [api, attempt, notify, queryClient],
  );
}
