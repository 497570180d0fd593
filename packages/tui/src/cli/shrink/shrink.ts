// `portal shrink`: create a shrink request (a quote) from a Ready upload holding a single .py model.
import {
  MESSAGES,
  checkDescription,
  checkTitle,
  extensionOf,
  formatShrinkPrice,
  shrinkConfirmQuestion,
  readyUploadProblem,
  shrinkPriceOf,
  LENGTHS,
} from '@portal/core';
import { CliError, EXIT, usageError } from '../errors';
import { QUOTE_SHOWN } from '../quotes/shared';
import { showCommand } from '../show';
import type { Session } from '../context';
import { waitFlag, type VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'shrink',
  summary: 'Create a shrink request (a quote) from a Ready upload holding a single .py model',
  flags: [
    { flags: '--upload <id>', description: 'a Ready upload of the project holding one .py file' },
    { flags: '--name <name>', description: `the request's title, ${LENGTHS.title} characters` },
    { flags: '--desc <text>', description: `a description, ${LENGTHS.description} characters`, default: '' },
    waitFlag('the quote until its request is Finished or Failed (after payment)'),
    { flags: '-y, --yes', description: 'create the quote without asking (required without a terminal)' },
  ],
  examples: [
    'portal shrink --upload <id> --name "Shrink v1"',
    'portal shrink --upload <id> --name "Shrink v1" --desc "first try" --yes --json',
  ],
};

export interface ShrinkOptions {
  upload?: string;
  name?: string;
  desc: string;
  wait?: boolean;
  yes?: boolean;
}

export async function run(opts: ShrinkOptions, s: Session): Promise<void> {
  // Before anything is asked or loaded: a script that forgot --yes learns so at once.
  if (!opts.yes && !s.interactive) throw usageError(MESSAGES.shrinkNeedsYes);
  const upload = await s.need(opts.upload, '--upload', 'Upload id');
  const name = await s.need(opts.name, '--name', 'Request name');
  const problem = checkTitle(name, 'create') ?? checkDescription(opts.desc);
  if (problem) throw new CliError(problem);
  const { client, project } = await s.project();
  const api = await s.api();
  const [{ rend: uploads }, { billing }] = await Promise.all([
    api.calls.rendList({ active: 1, bucket: project.stamp }),
    api.calls.billingStatus({ client: client.stamp }),
  ]);
  const chosen = uploads.list.find((r) => r.stamp === upload);
  const unusable = readyUploadProblem(chosen);
  if (unusable || !chosen) throw new CliError(unusable ?? MESSAGES.uploadNotFound);
  if (chosen.upload.list.length !== 1 || extensionOf(chosen.upload.list[0].name) !== '.py') throw new CliError(MESSAGES.shrinkSingleFile);
  const price = shrinkPriceOf(chosen, billing);
  if (!price) throw new CliError(MESSAGES.shrinkPriceUnknown);
  s.out.notice(formatShrinkPrice(price));
  if (!opts.yes) {
    const answer = await s.deps.prompter!.ask(`${shrinkConfirmQuestion(price)} (y/N): `);
    if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('Cancelled: no quote was created.', EXIT.usage);
  }
  const { createShrinkRequest } = await import('../heavy');
  const quoteId = await createShrinkRequest(api, { project: project.stamp, upload, name, desc: opts.desc });
  s.out.notice(`Created quote ${quoteId} in ${project.name}`);
  await showCommand(s, QUOTE_SHOWN, quoteId, opts.wait);
}
