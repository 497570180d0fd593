// `portal runs remove <id>`.
import { removeVerb } from '../shared/edit';

export const { options, run } = removeVerb({
  command: 'runs',
  noun: 'request',
  remove: (api, id) => api.calls.runRemove({ run: id, active: 0 }),
});
