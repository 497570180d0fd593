// The forms' rules (SPEC section 5): sign-up, password reset, a fit request, an integration, and which uploads a request
// can use; each returns null or an empty object when the input is fine, else SPEC's messages.
import { MESSAGES } from '../messages';
import { PLAN_LIMITS, PLANS, type PlanName } from '../limits';
import {
  checkEmail,
  checkPassword,
  checkPasswordMatch,
  checkCompanyName,
  checkUsername,
  checkTitle,
  checkIntegrationToken,
  type RuleResult,
} from './fields';
import { extensionOf } from './files';

export interface SignupInput {
  email: string;
  username: string;
  name: string;
  password: string;
  confirm: string;
  terms: boolean;
}
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** All sign-up field errors at once, keyed by field. Empty object when valid. */
export function checkSignup(input: SignupInput): FieldErrors<keyof SignupInput> {
  const errors: FieldErrors<keyof SignupInput> = {};
  const set = (k: keyof SignupInput, r: RuleResult) => {
    if (r) errors[k] = r;
  };
  set('email', checkEmail(input.email));
  set('username', checkUsername(input.username));
  set('name', checkCompanyName(input.name));
  set('password', checkPassword(input.password));
  set('confirm', checkPasswordMatch(input.password, input.confirm));
  set('terms', input.terms ? null : MESSAGES.terms);
  return errors;
}

export interface ResetPasswordInput {
  password: string;
  confirm: string;
}
export function checkResetPassword(input: ResetPasswordInput): FieldErrors<keyof ResetPasswordInput> {
  const errors: FieldErrors<keyof ResetPasswordInput> = {};
  const p = checkPassword(input.password);
  if (p) errors.password = p;
  const m = checkPasswordMatch(input.password, input.confirm);
  if (m) errors.confirm = m;
  return errors;
}

export type FitSizeField = 'inputs' | 'outputs' | 'target';

/** One fit size (input columns, output columns, task target size) against the plan's maximum. */
export function checkFitSize(field: FitSizeField, value: number | string | null | undefined, plan: PlanName): RuleResult {
  if (value === '' || value === null || value === undefined) return MESSAGES.fillAllFields;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n) || !Number.isInteger(n)) return MESSAGES.fillAllFields;
  if (n < 1) return MESSAGES.atLeastOne;
  const limits = PLAN_LIMITS[plan];
  const max = field === 'inputs' ? limits.inputColumns : field === 'outputs' ? limits.outputColumns : limits.taskTargetSize;
  if (n <= max) return null;
  if (plan === 'Enterprise') return MESSAGES.enterpriseLimit(max);
  if (field === 'inputs') return MESSAGES.planLimitInputs(plan, max);
  if (field === 'outputs') return MESSAGES.planLimitOutputs(plan, max);
  return MESSAGES.planLimitTarget(plan, max);
}

export interface FitRequestInput {
  name: string;
  inputs: number | string | null;
  outputs: number | string | null;
  target: number | string | null;
  explainability: boolean;
  /** The chosen upload's id; empty when none was chosen. */
  upload: string | null | undefined;
}

/** The plan an account on this plan can upgrade to, or null on the top plan (nothing to offer there). */
export function upgradeTarget(plan: PlanName | null | undefined): PlanName | null {
  const at = plan ? PLANS.indexOf(plan) : -1;
  return at >= 0 && at < PLANS.length - 1 ? PLANS[at + 1] : null;
}

/** Whether a plan-limit message should carry the upgrade link (Individual only). */
export function isUpgradeMessage(message: string | null, plan: PlanName): boolean {
  return !!message && plan === 'Individual' && message.startsWith(`${plan} plans are limited to`);
}

export function checkFitRequest(input: FitRequestInput, plan: PlanName): FieldErrors<keyof FitRequestInput> {
  const errors: FieldErrors<keyof FitRequestInput> = {};
  const title = checkTitle(input.name, 'create');
  if (title) errors.name = title;
  for (const f of ['inputs', 'outputs', 'target'] as const) {
    const r = checkFitSize(f, input[f], plan);
    if (r) errors[f] = r;
  }
  if (input.explainability && !PLAN_LIMITS[plan].explainability) errors.explainability = MESSAGES.explainabilityNotAllowed;
  if (!input.upload) errors.upload = MESSAGES.selectUpload;
  return errors;
}

/** The parts of an upload group the fit rules read. */
export interface UploadGroupLike {
  name: string;
  flight: string;
  upload: { list: ReadonlyArray<{ name: string; state: string }> };
}

/** Training and generating read an upload's .json data: whether the group holds a Finished .json file. */
export function hasFinishedJson(upload: UploadGroupLike): boolean {
  return upload.upload.list.some((i) => i.state === 'Finished' && extensionOf(i.name) === '.json');
}

/** Whether a request can use an upload at all: it must exist and be Ready; null when it can, else the message every door shows. */
export function readyUploadProblem(upload: UploadGroupLike | undefined): string | null {
  if (!upload) return MESSAGES.uploadNotFound;
  if (upload.flight !== 'Ready')
    return `${MESSAGES.uploadNotFound}: only Ready uploads can be used, and ${upload.name} is ${upload.flight}`;
  return null;
}

/**
 * Whether an upload can feed a request with model training (or a generate run): it must exist, be Ready and hold a
 * Finished .json file; null when it can, else the message every door shows.
 */
export function fitUploadProblem(upload: UploadGroupLike | undefined): string | null {
  if (!upload) return MESSAGES.uploadNotFound;
  return readyUploadProblem(upload) ?? (hasFinishedJson(upload) ? null : MESSAGES.generateFileNotFound);
}

/** An account holds one API key at a time: a new one can be created only while the list is empty. */
export function canCreateApiKey(keys: readonly unknown[] | undefined): boolean {
  return !!keys && keys.length === 0;
}

export interface IntegrationInput {
  name: string;
  service: string;
  token: string;
}

/** The create-integration form's field errors (name and token); empty when it can be sent. */
export function checkIntegration(input: IntegrationInput): FieldErrors<'name' | 'token'> {
  const errors: FieldErrors<'name' | 'token'> = {};
  const name = checkTitle(input.name, 'create');
  const token = checkIntegrationToken(input.token);
  if (name) errors.name = name;
  if (token) errors.token = token;
  return errors;
}

export function firstError(errors: Record<string, string | undefined>): string | null {
  for (const v of Object.values(errors)) if (v) return v;
  return null;
}

/**
 * The reset token in what a person pastes: the mail's whole link (`.../reset-password?token=...`, possibly wrapped in
 * angle brackets or quotes) or the bare token. Terminals cannot follow the link, so the doors accept either.
 */
export function resetTokenFrom(pasted: string): string {
  const text = pasted.trim().replace(/^[<"']+|[>"']+$/g, '');
  const m = /[?&#]token=([^&#\s]+)/.exec(text);
  if (!m) return text;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}
