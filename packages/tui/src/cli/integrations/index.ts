// `portal integrations`: keys for the third-party language-model service (list, create, rename, remove).
import type { Command } from 'commander';
import { DEFAULT_INTEGRATION_SERVICE } from '@portal/core';
import type { Deps } from '../context';
import { addNoun } from '../verb';
import * as list from './list';
import * as create from './create';
import * as rename from './rename';
import * as remove from './remove';

export function register(program: Command, deps: Deps): void {
  addNoun(
    program,
    deps,
    {
      name: 'integrations',
      summary: `Integration keys for ${DEFAULT_INTEGRATION_SERVICE}`,
      examples: ['portal integrations list', 'echo "$OPENAI_KEY" | portal integrations create --name "OpenAI prod" --token-stdin'],
    },
    [list, create, rename, remove],
  );
}
