// Two-factor sign-in on the account page: its state, setup (secret and otpauth URI), confirmation with a code (which
// answers the recovery codes, shown once) and turning off with the password and a code. Every door renders this hook.
import { useCallback, useState } from 'react';
import { toApiError } from '../loader';
import { checkOtp } from '../rules/security';
import { ACCOUNT_MESSAGES } from '../rules/account';
import { useApi } from './context';
import { callKey } from '../query';
import { useLoad } from './useLoad';
import { useSecurityChanged } from './useAccountEvents';

export interface TwoFactor {
  enabled: boolean | undefined;
  recoveryLeft: number;
  /** The secret waiting for its first code: as text and as the URI its QR code carries. */
  setup: { secret: string; uri: string } | null;
  /** The recovery codes, shown once right after turning on. */
  recovery: string[] | null;
  problem: string | null;
  start(): Promise<void>;
  confirm(code: string): Promise<void>;
  /** Turning off asks the password as well as a code. */
  turnOff(v: { code: string; password: string }): Promise<void>;
  /** Forgets the recovery codes on screen (the user has kept them). */
  done(): void;
}

export function useTwoFactor(): TwoFactor {
  const api = useApi();
  const status = useLoad(callKey('otpStatus'), (signal) => api.calls.otpStatus(undefined, { signal }));
  const changed = useSecurityChanged();
  const [setup, setSetup] = useState<TwoFactor['setup']>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const run = useCallback(
    async (check: string | null, step: () => Promise<void>) => {
      setProblem(check);
      if (check) return;
      try {
        await step();
        await Promise.all([status.reload(), changed()]);
      } catch (e) {
        setProblem(toApiError(e).display);
      }
    },
    [status, changed],
  );
  return {
    enabled: status.data?.otp.enabled,
    recoveryLeft: status.data?.otp.recoveryLeft ?? 0,
    setup,
    recovery,
    problem,
    start: () => run(null, async () => setSetup((await api.calls.otpSetup(undefined)).otp)),
    confirm: (code) =>
      run(checkOtp(code), async () => {
        setRecovery((await api.calls.otpEnable({ code })).otp.recovery);
        setSetup(null);
      }),
    turnOff: ({ code, password }) =>
      run(password ? checkOtp(code) : ACCOUNT_MESSAGES.passwordRequired, async () => void (await api.calls.otpDisable({ code, password }))),
    done: () => setRecovery(null),
  };
}
