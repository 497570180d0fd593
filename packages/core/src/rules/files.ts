// Files by name and size: the extension a file is known by, and the drop zone's checks for a context.
import { MESSAGES } from '../messages';
import { PLAN_LIMITS, UPLOAD_CONTEXTS, type PlanName, type UploadContext } from '../limits';
import type { RuleResult } from './fields';

export interface DropFile {
  name: string;
  size: number;
}

export function extensionOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i <= 0 && !name.startsWith('.') ? '' : name.slice(i).toLowerCase();
}

/** Drop-zone checks for a context: count, the plan's size, and the context's extensions. */
export function checkDropFiles(files: readonly DropFile[], context: UploadContext, plan: PlanName): RuleResult {
  const ctx = UPLOAD_CONTEXTS[context];
  if (files.length > ctx.maxFiles) return MESSAGES.tooManyFiles(ctx.maxFiles);
  const allowed: readonly string[] = ctx.extensions;
  if (files.some((f) => !allowed.includes(extensionOf(f.name)))) return MESSAGES.invalidFileType(allowed);
  if (files.some((f) => f.size > PLAN_LIMITS[plan].maxFileSize)) return MESSAGES.fileTooLarge;
  return null;
}
