// `portal uploads rename <id> --name N`.
import { renameVerb } from '../shared/edit';

export const { options, run } = renameVerb({
  command: 'uploads',
  noun: 'upload',
  exampleName: 'March data',
  rename: async (api, id, name) => (await api.calls.rendRename({ rend: id, name })).rend,
});
