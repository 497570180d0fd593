// `portal ui [ROUTE|URL]`: the interactive UI opened on the screen of a web portal path or a URL pasted from the
// browser (core's one screen table gives every web URL its terminal screen).
import type { Command } from 'commander';
import { screenTarget } from '@portal/core';
import type { Deps } from './context';
import { act, examples } from './common';
import { EXIT, usageError } from './errors';

export function register(program: Command, deps: Deps): void {
  program
    .command('ui [route]')
    .description('Open the interactive UI, on the screen of a web portal path or URL when given (needs a terminal)')
    .addHelpText(
      'after',
      examples('portal ui', 'portal ui /client/<id>/project/<id>/runs', "portal ui 'https://portal.example.com/client/<id>/apikeys'"),
    )
    .action(
      act(deps, async (s, route: string | undefined) => {
        const target = route === undefined ? undefined : screenTarget(route);
        if (target === null)
          throw usageError(
            `"${route}" is not a page of the portal: give a path such as /client/<id>/projects, or a URL copied from the web portal`,
          );
        if (!deps.stdin.isTTY || !deps.stdout.isTTY || !deps.startUi) throw usageError('The interactive UI needs a terminal.');
        s.exit((await deps.startUi(s, target)) ?? EXIT.ok);
      }),
    );
}
