// `portal integrations rename <id> --name N`.
import { renameVerb } from '../shared/edit';
import { notFound } from './shared';

export const { options, run } = renameVerb({
  command: 'integrations',
  noun: 'integration',
  helpNoun: 'an integration key',
  exampleName: 'OpenAI staging',
  rename: async (api, id, name) => (await api.calls.integrationRename({ apikey: id, name }).catch(notFound)).apikey,
});
