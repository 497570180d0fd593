// `portal models rename <id> --name N`.
import { renameVerb } from '../shared/edit';

export const { options, run } = renameVerb({
  command: 'models',
  noun: 'model',
  exampleName: 'Churn embedder',
  rename: async (api, id, name) => (await api.calls.modelRename({ model: id, name })).model,
});
