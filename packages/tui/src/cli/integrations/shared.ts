// What the integrations verbs share.
import { MESSAGES } from '@portal/core';
import type { Session } from '../context';
import { CliError } from '../errors';

export async function clientId(s: Session): Promise<string> {
  return (await s.client()).stamp;
}

/** SPEC's not-found text for an unknown integration key. */
export function notFound(e: unknown): never {
  if ((e as { status?: number }).status === 404) throw new CliError(MESSAGES.integrationNotFound);
  throw e;
}
