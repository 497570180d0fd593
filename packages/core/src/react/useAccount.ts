// The account page's changes (issue 30, steps 3-5), one hook per section: the password, the email address (and the
// page its confirmation link opens), the export of the account's data and deleting the account. Every door renders
// these hooks; each checks with core's rules before it calls, and says what happened in `problem` or `notice`.
import { useCallback, useState } from 'react';
import { toApiError } from '../loader';
import type { AccountView } from '../contract/account';
import { checkEmail, checkPassword, checkPasswordMatch } from '../rules/fields';
import { ACCOUNT_MESSAGES, accountExportName, checkCurrentPassword } from '../rules/account';
import { checkOtp } from '../rules/security';
import { useApi } from './context';
import { callKey } from '../query';
import { useLoad } from './useLoad';
import { useSecurityChanged } from './useAccountEvents';

/** What every section shows while and after it acts. */
export interface AccountStep {
  /** Whether a call is under way (buttons wait). */
  busy: boolean;
  /** What went wrong (a rule or the server's sentence), else null. */
  problem: string | null;
  /** What the last success did, else null. */
  notice: string | null;
}

/** Runs one step: the first failed check, else the call; the notice its result makes, or the call's problem. */
function useStep() {
  const [state, setState] = useState<AccountStep>({ busy: false, problem: null, notice: null });
  const run = useCallback(async <T>(check: string | null, call: () => Promise<T>, notice: (r: T) => string | null): Promise<boolean> => {
    if (check) {
      setState({ busy: false, problem: check, notice: null });
      return false;
    }
    setState({ busy: true, problem: null, notice: null });
    try {
      const r = await call();
      setState({ busy: false, problem: null, notice: notice(r) });
      return true;
    } catch (e) {
      setState({ busy: false, problem: toApiError(e).display, notice: null });
      return false;
    }
  }, []);
  return { state, run };
}

const firstOf = (...checks: Array<string | null>): string | null => checks.find((c) => c) ?? null;

export interface PasswordChangeInput {
  current: string;
  password: string;
  /** The new password typed again; checked when given. */
  confirmation?: string;
}
export interface PasswordChange extends AccountStep {
  /** true once changed (the form can be cleared); every other session of the account is then signed out. */
  change(input: PasswordChangeInput): Promise<boolean>;
}

export function usePasswordChange(): PasswordChange {
  const api = useApi();
  const { state, run } = useStep();
  const changed = useSecurityChanged();
  return {
    ...state,
    change: ({ current, password, confirmation }) =>
      run(
        firstOf(
          checkCurrentPassword(current),
          checkPassword(password),
          confirmation === undefined ? null : checkPasswordMatch(password, confirmation),
          current === password ? ACCOUNT_MESSAGES.passwordSame : null,
        ),
        async () => {
          const r = await api.calls.passwordChange({ current, password });
          await changed();
          return r;
        },
        () => ACCOUNT_MESSAGES.passwordChanged,
      ),
  };
}

export interface EmailChange extends AccountStep {
  /** The account (its email now and the change waiting for confirmation), once loaded. */
  account: AccountView | undefined;
  /** Asks for the change: a confirmation link goes to the new address, a notice to the old one. */
  request(input: { email: string; password: string }): Promise<boolean>;
  /** Withdraws the change waiting for confirmation (its link stops working). */
  cancel(): Promise<boolean>;
}

export function useEmailChange(): EmailChange {
  const api = useApi();
  const load = useLoad(callKey('accountShow'), (signal) => api.calls.accountShow(undefined, { signal }));
  const { state, run } = useStep();
  const changed = useSecurityChanged();
  const reloaded = async <T>(p: Promise<T>): Promise<T> => {
    const r = await p;
    await Promise.all([load.reload(), changed()]);
    return r;
  };
  return {
    ...state,
    problem: state.problem ?? load.error?.display ?? null,
    account: load.data?.account,
    request: ({ email, password }) =>
      run(
        firstOf(checkEmail(email), checkCurrentPassword(password)),
        () => reloaded(api.calls.emailChange({ email: email.trim(), password })),
        (r) => ACCOUNT_MESSAGES.emailSent(r.account.pendingEmail?.email ?? email.trim()),
      ),
    cancel: () =>
      run(
        null,
        () => reloaded(api.calls.emailChangeCancel(undefined)),
        () => ACCOUNT_MESSAGES.emailCancelled,
      ),
  };
}

export interface EmailConfirm extends AccountStep {
  /** The account's email address once confirmed, else null. */
  email: string | null;
  /** Confirms with the link's token (no sign-in needed). */
  confirm(): Promise<boolean>;
}

/** The page the confirmation link opens (EMAIL_CONFIRM_PATH): a button that confirms with the link's token. */
export function useEmailConfirm(token: string | null | undefined): EmailConfirm {
  const api = useApi();
  const { state, run } = useStep();
  const [email, setEmail] = useState<string | null>(null);
  return {
    ...state,
    email,
    confirm: () =>
      run(
        token ? null : ACCOUNT_MESSAGES.emailLinkInvalid,
        async () => {
          const r = await api.calls.emailConfirm({ token: token! });
          setEmail(r.email);
          return r;
        },
        (r) => ACCOUNT_MESSAGES.emailConfirmed(r.email),
      ),
  };
}

export interface AccountExportScreen extends AccountStep {
  /** The export just made: the file name to save it under and its JSON text, until `done()`. */
  file: { name: string; text: string } | null;
  start(): Promise<boolean>;
  /** Forgets the file once the door has saved it. */
  done(): void;
}

export function useAccountExport(): AccountExportScreen {
  const api = useApi();
  const { state, run } = useStep();
  const [file, setFile] = useState<AccountExportScreen['file']>(null);
  return {
    ...state,
    file,
    start: () =>
      run(
        null,
        async () => {
          const data = await api.calls.accountExport(undefined);
          const name = accountExportName(data.user.username, data.exportedAt);
          setFile({ name, text: `${JSON.stringify(data, null, 2)}\n` });
          return name;
        },
        (name) => ACCOUNT_MESSAGES.exported(name),
      ),
    done: () => setFile(null),
  };
}

export interface AccountDelete extends AccountStep {
  /** Whether a code is asked too (two-factor sign-in on); undefined until known. */
  needsCode: boolean | undefined;
  /** true once deleted: the account's sessions ended and this door's token is forgotten (the door goes to sign-in). */
  deleted: boolean;
  remove(input: { password: string; code?: string }): Promise<boolean>;
}

export function useAccountDelete(): AccountDelete {
  const api = useApi();
  const load = useLoad(callKey('accountShow'), (signal) => api.calls.accountShow(undefined, { signal }));
  const { state, run } = useStep();
  const [deleted, setDeleted] = useState(false);
  const needsCode = load.data?.account.otp;
  return {
    ...state,
    needsCode,
    deleted,
    remove: ({ password, code }) =>
      run(
        firstOf(checkCurrentPassword(password), needsCode ? (code ? checkOtp(code) : ACCOUNT_MESSAGES.deleteCodeRequired) : null),
        async () => {
          const r = await api.calls.accountDelete({ password, ...(code ? { code } : {}) });
          api.tokens.clear();
          setDeleted(true);
          return r;
        },
        () => ACCOUNT_MESSAGES.deleted,
      ),
  };
}
