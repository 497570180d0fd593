// `portal uploads list`: the project's uploads.
import { MESSAGES, type Upload } from '@portal/core';
import { listVerb } from '../shared/list';
import { uploadColumns } from './shared';

export const { options, run } = listVerb<Upload>({
  summary: 'List uploads: name, id, status, files, size, requests, created, error',
  examples: ['portal uploads list --project <id>', 'portal uploads list --json | jq -r \'.[] | select(.status=="Ready") | .id\''],
  rows: async (_opts, s) => {
    const { project } = await s.project();
    const api = await s.api();
    return (await api.calls.rendList({ active: 1, bucket: project.stamp })).rend.list;
  },
  columns: uploadColumns,
  empty: MESSAGES.noUploads,
});
