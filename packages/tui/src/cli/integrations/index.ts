// `portal integrations`: keys for the third-party language-model service (list, create, rename, remove).
import { DEFAULT_INTEGRATION_SERVICE } from '@portal/core';
import { commands, type NounOptions } from '../verb';
import * as list from './list';
import * as create from './create';
import * as rename from './rename';
import * as remove from './remove';

const integrationsNoun: NounOptions = {
  name: 'integrations',
  summary: `Integration keys for ${DEFAULT_INTEGRATION_SERVICE}`,
  examples: ['portal integrations list', 'echo "$OPENAI_KEY" | portal integrations create --name "OpenAI prod" --token-stdin'],
};

export const { register } = commands([integrationsNoun, [list, create, rename, remove]]);
