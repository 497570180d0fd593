// Which uploads a shrink request can use, and why the others cannot: the server's rule (one Finished .py model and
// nothing else, with parameters counted), told before submit so every door can disable the rest with the reason.
import type { Upload } from '../contract';
import { extensionOf } from './files';

export type ShrinkChoice = { ok: true } | { ok: false; reason: string };

export const SHRINK_REASONS = {
  analysing: 'Still being analysed',
  failed: 'Analysis failed',
  noModel: 'No .py model file',
  manyFiles: 'More than one file: a shrink takes a single .py model',
  noParameters: 'No parameters counted in the model',
} as const;

export function shrinkChoice(upload: Upload): ShrinkChoice {
  if (upload.flight === 'Failed') return { ok: false, reason: SHRINK_REASONS.failed };
  if (upload.flight !== 'Ready') return { ok: false, reason: SHRINK_REASONS.analysing };
  const finished = upload.upload.list.filter((i) => i.state === 'Finished');
  const models = finished.filter((i) => extensionOf(i.file.name || i.name) === '.py');
  if (models.length === 0) return { ok: false, reason: SHRINK_REASONS.noModel };
  if (finished.length !== 1) return { ok: false, reason: SHRINK_REASONS.manyFiles };
  const inputs = Number(models[0].meta?.inputs ?? 0);
  if (!Number.isSafeInteger(inputs) || inputs < 1) return { ok: false, reason: SHRINK_REASONS.noParameters };
  return { ok: true };
}
