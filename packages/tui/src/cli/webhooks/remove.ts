// `portal webhooks remove <id> [--yes]`: the endpoint and its delivery log go.
import { removeVerb } from '../shared/edit';

export const { options, run } = removeVerb({
  command: 'webhooks',
  noun: 'webhook endpoint',
  remove: (api, id) => api.calls.webhookRemove({ webhook: id }),
});
