// `portal projects remove <id>`: the removed project stops being the default for --project.
import { removeVerb } from '../shared/edit';

export const { options, run } = removeVerb({
  command: 'projects',
  noun: 'project',
  remove: (api, id) => api.calls.bucketRemove({ bucket: id, active: 0 }),
  afterRemove: async (s, id) => {
    const host = await s.host();
    if (host.get('project') === id) host.set('project', undefined);
  },
});
