// `portal integrations remove <id>`.
import { removeVerb } from '../shared/edit';
import { notFound } from './shared';

export const { options, run } = removeVerb({
  command: 'integrations',
  noun: 'integration',
  helpNoun: 'an integration key',
  remove: (api, id) => api.calls.integrationRemove({ apikey: id, active: 0 }).catch(notFound),
});
