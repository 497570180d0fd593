// `portal shrink`: a shrink request on a Ready upload holding one .py model; it is billed through a quote.
import type { Command } from 'commander';
import { MESSAGES, checkDescription, checkTitle, extensionOf } from '@portal/core';
import type { Deps } from './context';
import { act, examples } from './common';
import { CliError } from './errors';
import { followQuote, quoteStatus, showQuote } from './quotes';

export function register(program: Command, deps: Deps): void {
  program
    .command('shrink')
    .description('Create a shrink request (a quote) from a Ready upload holding a single .py model')
    .option('--upload <id>', 'a Ready upload of the project holding one .py file')
    .option('--name <name>', "the request's title, 1-60 characters")
    .option('--desc <text>', 'a description, up to 300 characters', '')
    .option('--wait', 'follow the quote until its request is Finished or Failed (after payment)')
    .addHelpText('after', examples('portal shrink --upload <id> --name "Shrink v1"', 'portal shrink --upload <id> --name "Shrink v1" --desc "first try" --json'))
    .action(
      act(deps, async (s, opts: { upload?: string; name?: string; desc: string; wait?: boolean }) => {
        const upload = await s.need(opts.upload, '--upload', 'Upload id');
        const name = await s.need(opts.name, '--name', 'Request name');
        const problem = checkTitle(name, 'create') ?? checkDescription(opts.desc);
        if (problem) throw new CliError(problem);
        const { project } = await s.project();
        const api = await s.api();
        const { rend } = await api.calls.rendList({ active: 1, bucket: project.stamp });
        const chosen = rend.list.find((r) => r.stamp === upload);
        if (!chosen) throw new CliError(MESSAGES.uploadNotFound);
        if (chosen.flight !== 'Ready') throw new CliError(`${MESSAGES.uploadNotFound}: only Ready uploads can be used, and ${chosen.name} is ${chosen.flight}`);
        if (chosen.upload.list.length !== 1 || extensionOf(chosen.upload.list[0].name) !== '.py') throw new CliError(MESSAGES.shrinkSingleFile);
        const { createShrinkRequest } = await import('./heavy');
        const quoteId = await createShrinkRequest(api, { bucket: project.stamp, upload, name, desc: opts.desc });
        s.out.notice(`Created quote ${quoteId} in ${project.name}`);
        const q = opts.wait ? await followQuote(s, quoteId) : await quoteStatus(s, quoteId);
        await showQuote(s, q);
        if (opts.wait && q.quote.run?.state !== 'Finished') s.exit(1);
      }),
    );
}
