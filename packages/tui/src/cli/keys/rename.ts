// `portal keys rename <id> --name N`.
import { renameVerb } from '../shared/edit';

export const { options, run } = renameVerb({
  command: 'keys',
  noun: 'API key',
  exampleName: 'Staging',
  rename: async (api, id, name) => (await api.calls.apikeyRename({ apikey: id, name })).apikey,
});
