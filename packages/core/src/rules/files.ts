// Files by name and size: the extension a file is known by, and the drop zone's checks for a context.
import { MESSAGES } from '../messages';
import { PLAN_LIMITS, UPLOAD_CONTEXTS, type PlanName, type UploadContext } from '../limits';
import type { RuleResult } from './fields';
import { TABLE_TEXT_EXTENSIONS } from '../upload/table';

export interface DropFile {
  name: string;
  size: number;
}

export function extensionOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i <= 0 && !name.startsWith('.') ? '' : name.slice(i).toLowerCase();
}

/** Whether a context takes tables: there a .csv or .tsv is turned into a .json table before upload (upload/table). */
export const takesTableText = (context: UploadContext): boolean =>
  (UPLOAD_CONTEXTS[context].extensions as readonly string[]).includes('.json');

/**
 * Drop-zone checks for a context: count, the plan's size, and the context's extensions (SPEC's list, which the message
 * names; a context that takes .json also takes .csv and .tsv, converted before upload).
 */
export function checkDropFiles(files: readonly DropFile[], context: UploadContext, plan: PlanName): RuleResult {
  const ctx = UPLOAD_CONTEXTS[context];
  if (files.length > ctx.maxFiles) return MESSAGES.tooManyFiles(ctx.maxFiles);
  const allowed: readonly string[] = takesTableText(context) ? [...ctx.extensions, ...TABLE_TEXT_EXTENSIONS] : ctx.extensions;
  if (files.some((f) => !allowed.includes(extensionOf(f.name)))) return MESSAGES.invalidFileType(ctx.extensions);
  if (files.some((f) => f.size > PLAN_LIMITS[plan].maxFileSize)) return MESSAGES.fileTooLarge;
  return null;
}
