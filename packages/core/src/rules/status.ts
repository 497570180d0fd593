// How a state reads at a glance in every door: a colour category beside the state's own word (never colour alone).
export type StatusTone = 'success' | 'error' | 'warning' | 'progress' | 'neutral';

const TONES: Record<string, StatusTone> = {
  Finished: 'success',
  Ready: 'success',
  Paid: 'success',
  Failed: 'error',
  Unpaid: 'warning',
  Pending: 'progress',
  Preparing: 'progress',
  Processing: 'progress',
};

/** The colour category of an upload, request, model or quote state; an unknown state is neutral (shown as raw text). */
export function statusTone(state: string | null | undefined): StatusTone {
  return (state && TONES[state]) || 'neutral';
}

const FUNCTIONS: Record<string, string> = {
  fit: 'Fit (trains the model)',
  generate: 'Generate (applies the model)',
  shrink: 'Shrink (quote)',
};

/**
 * A request's function in words: a fit request makes a fit run and a generate run under one name, so the list tells
 * them apart by what each does. The API's word comes first.
 */
export function requestFunctionLabel(fn: string): string {
  return FUNCTIONS[fn] ?? fn;
}
