// `portal webhooks rename <id> --name N`.
import { renameVerb } from '../shared/edit';

export const { options, run } = renameVerb({
  command: 'webhooks',
  noun: 'webhook endpoint',
  exampleName: 'Billing service',
  rename: async (api, id, name) => (await api.calls.webhookUpdate({ webhook: id, name })).webhook,
});
