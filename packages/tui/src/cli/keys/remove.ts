// `portal keys remove <id>`.
import { removeVerb } from '../shared/edit';

export const { options, run } = removeVerb({
  command: 'keys',
  noun: 'API key',
  remove: (api, id) => api.calls.apikeyRemove({ apikey: id, active: 0 }),
});
