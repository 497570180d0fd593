// `portal models remove <id>`.
import { removeVerb } from '../shared/edit';

export const { options, run } = removeVerb({
  command: 'models',
  noun: 'model',
  remove: (api, id) => api.calls.modelRemove({ model: id, active: 0 }),
});
