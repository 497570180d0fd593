// `portal ui`: open the interactive UI, on the screen of a web portal path or URL when given (needs a terminal).
import { screenTarget } from '@portal/core';
import { EXIT, usageError } from '../errors';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'ui [route]',
  summary: 'Open the interactive UI, on the screen of a web portal path or URL when given (needs a terminal)',
  examples: ['portal ui', 'portal ui /client/<id>/project/<id>/runs', "portal ui 'https://portal.example.com/client/<id>/apikeys'"],
};

export interface UiOptions {
  route?: string;
}

export async function run(opts: UiOptions, s: Session): Promise<void> {
  const { route } = opts;
  const target = route === undefined ? undefined : screenTarget(route);
  if (target === null)
    throw usageError(
      `"${route}" is not a page of the portal: give a path such as /client/<id>/projects, or a URL copied from the web portal`,
    );
  if (!s.deps.stdin.isTTY || !s.deps.stdout.isTTY || !s.deps.startUi) throw usageError('The interactive UI needs a terminal.');
  s.exit((await s.deps.startUi(s, target)) ?? EXIT.ok);
}
