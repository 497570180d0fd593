// `portal uploads remove <id>`.
import { removeVerb } from '../shared/edit';

export const { options, run } = removeVerb({
  command: 'uploads',
  noun: 'upload',
  remove: (api, id) => api.calls.rendRemove({ rend: id, active: 0 }),
});
