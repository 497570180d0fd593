// `portal runs rename <id> --name N`.
import { renameVerb } from '../shared/edit';

export const { options, run } = renameVerb({
  command: 'runs',
  noun: 'request',
  exampleName: 'Churn fit v2',
  rename: async (api, id, name) => (await api.calls.runRename({ run: id, name })).run,
});
