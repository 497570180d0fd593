// Request details, refreshed live until final, with Download Results (ensemble_result_{date}_{time}.json here).
import { Box, Text, useInput } from 'ink';
import { CONTACT_PATH, MESSAGES, formatTime, isFinalState } from '@portal/core';
import { useNotify, useRunDetails } from '@portal/core/react';
import { Fields } from '../components/Form';
import { useLabel, useNav } from '../ui/context';

export default function RunDetailsScreen() {
  const nav = useNav();
  const notify = useNotify();
  const { clientId, bucketId, runId } = nav.params as { clientId: string; bucketId: string; runId: string };
  const details = useRunDetails(clientId, bucketId, runId);
  const run = details.data?.run.record;
  useLabel(bucketId, details.data?.bucket?.name);
  useLabel(runId, run?.name);
  useInput((input, key) => {
    if (!(key.return || input === 'D') || !details.data?.run.url) return;
    details.download().then(
      async ({ fileName, text }) => notify(`Saved ${await nav.io.saveFile(fileName, text)}`, 'success'),
      () => {},
    );
  }, { isActive: !nav.menuFocused });
  if (!run) return <Text>{details.loading ? 'Loading…' : details.error?.status === 404 ? MESSAGES.requestNotFound : MESSAGES.loadRun}</Text>;
  const final = isFinalState(run.state);
  return (
    <Box flexDirection="column">
      <Text bold>Request Details</Text>
      <Fields
        rows={[
          ['Name', run.name],
          ['Function', run.function],
          ['Status', `${run.state}${final ? '' : ' (refreshing)'}`],
          ['Created', formatTime(run.createdAt)],
          ['Upload', run.rend?.name ?? '-'],
        ]}
      />
      {run.message ? <Text color="red">{run.message} · Contact Support: {nav.io.baseUrl}{CONTACT_PATH}</Text> : null}
      {details.data?.run.url ? <Text color="cyan">[ Download Results ] press Enter</Text> : <Text dimColor>Results are not ready yet.</Text>}
    </Box>
  );
}
