// `portal projects rename <id> --name N`.
import { renameVerb } from '../shared/edit';

export const { options, run } = renameVerb({
  command: 'projects',
  noun: 'project',
  exampleName: 'Churn v2',
  rename: async (api, id, name) => (await api.calls.bucketRename({ bucket: id, name })).bucket,
});
