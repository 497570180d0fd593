// Request details, refreshed live until final, with Download Results (ensemble_result_{date}_{time}.json here), a
// progress bar, the training loss as a sparkline, the latest events (3 below 40 rows, 6 from there) and Run again.
import { Box, Text, useInput } from 'ink';
import {
  runScoreText,
  CONTACT_PATH,
  MESSAGES,
  formatDuration,
  formatEvent,
  formatTime,
  isFinalState,
  isMissing,
  MAP_MIN_ROWS,
  progressBar,
  screenPath,
  sparkline,
  printable,
} from '@portal/core';
import { useNotify, useRunDetails } from '@portal/core/react';
import { Fields } from '../components/Form';
import { RunMap } from '../components/RunMap';
import { useLabel, useNav } from '../ui/context';

export default function RunDetailsScreen() {
  const nav = useNav();
  const notify = useNotify();
  const { clientId, projectId, runId } = nav.params as { clientId: string; projectId: string; runId: string };
  const details = useRunDetails(clientId, projectId, runId);
  const run = details.data?.run.record;
  useLabel(clientId, details.data?.client?.name);
  useLabel(projectId, details.data?.bucket?.name);
  useLabel(runId, run?.name);
  useInput(
    (input, key) => {
      if (input === 'R' && details.canRerun && !details.rerunning) {
        void details.rerun().then((again) => {
          if (!again) return;
          notify(MESSAGES.rerunStarted, 'success');
          nav.go(screenPath('runDetails', { clientId, projectId, runId: again }));
        });
        return;
      }
      if (!(key.return || input === 'D') || !details.data?.run.url) return;
      details.download().then(
        async ({ fileName, text }) => notify(`Saved ${await nav.io.saveFile(fileName, text)}`, 'success'),
        () => {},
      );
    },
    { isActive: !nav.menuFocused },
  );
  if (!run) {
    if (details.loading) return <Text>Loading…</Text>;
    // An unknown or removed request (or another account's) is 'Request not found'; any other failure is SPEC's load message.
    return <Text>{isMissing(details.error) ? MESSAGES.requestNotFound : MESSAGES.loadRun}</Text>;
  }
  const final = isFinalState(run.state);
  const url = details.data?.run.url;
  const { progress, loss } = details;
  const last = loss.at(-1);
  return (
    <Box flexDirection="column">
      <Text bold>{printable(run.name)}</Text>
      <Fields
        rows={[
          ['Status', `${run.state}${final ? '' : ' (updating live…)'}`],
          ...(run.message
            ? [
                [
                  'Message',
                  <Text color="red">
                    {run.message} · Contact Support: {nav.io.baseUrl}
                    {CONTACT_PATH}
                  </Text>,
                ] as const,
              ]
            : []),
          ['Function', run.function],
          // How good a fit's model is: its held-out score, and a plain note (e.g. stopped early) when there is one.
          ...(runScoreText(run) ? [['How good', runScoreText(run)!] as const] : []),
          ...(run.note ? [['Note', <Text color="yellow">{printable(run.note)}</Text>] as const] : []),
          ['Created', formatTime(run.createdAt)],
          ['Duration', formatDuration(details.duration)],
          ...(progress && !(run.state === 'Failed') ? [['Progress', `${progressBar(progress.fraction)} ${progress.label}`] as const] : []),
          ...(last
            ? [
                [
                  'Loss',
                  `${sparkline(loss.map((p) => p.loss))} ${last.loss} (validation ${last.valLoss}) after ${loss.length} epoch${loss.length === 1 ? '' : 's'}`,
                ] as const,
              ]
            : []),
          ['Upload', run.rend?.name ?? <Text color="red">{MESSAGES.uploadDataNotFound}</Text>],
          ...(run.desc ? [['Description', run.desc] as const] : []),
        ]}
      />
      {url ? (
        <Text color="cyan">[ Download Results ] press Enter</Text>
      ) : final ? (
        run.state === 'Finished' ? (
          <Text dimColor>This request has no result file.</Text>
        ) : null
      ) : (
        <Text dimColor>[ Download Results ] (once the results are ready)</Text>
      )}
      {details.canRerun ? <Text color="cyan">[ Run again ] press R</Text> : null}
      {run.function === 'generate' && run.state === 'Finished' ? (
        nav.size.rows >= MAP_MIN_ROWS ? (
          <RunMap runId={run.stamp} active={!nav.menuFocused} />
        ) : (
          <Text dimColor wrap="truncate-end">
            Embedding map: `portal runs map {run.stamp}`, or a terminal of {MAP_MIN_ROWS}+ rows
          </Text>
        )
      ) : null}
      <Text bold>Events</Text>
      {details.events.length ? (
        details.events.slice(nav.size.rows >= MAP_MIN_ROWS ? -6 : -3).map((e) => (
          <Text key={e.seq} color={e.kind === 'state' && e.message.startsWith('Failed') ? 'red' : undefined} wrap="truncate-end">
            {formatEvent(e)}
          </Text>
        ))
      ) : (
        <Text dimColor>{MESSAGES.noEvents}</Text>
      )}
    </Box>
  );
}
