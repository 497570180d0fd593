// Requests of a project: function, status, message (with Contact Support), created, upload; open, rename, remove.
import { Box, Text } from 'ink';
import { CONTACT_PATH, MESSAGES, RUN_FUNCTIONS, RUN_STATES, formatTime, nextFilter, screenPath, type Run } from '@portal/core';
import { useRuns } from '@portal/core/react';
import { ListView, useLongList } from '../components/ListView';
import { fromList } from '../components/lists';
import { useLabel, useNav } from '../ui/context';

export default function RunsScreen() {
  const nav = useNav();
  const { clientId, projectId } = nav.params as { clientId: string; projectId: string };
  const paging = useLongList();
  const runs = useRuns(clientId, projectId, paging);
  useLabel(clientId, runs.data?.client.name);
  useLabel(projectId, runs.data?.project.name);
  const anyMessage = runs.data?.runs.some((r) => r.message);
  // Requests in progress change state on the server: the list refreshes until all are final.
  return (
    <Box flexDirection="column">
      <ListView<Run>
        title={`Requests · status ${runs.filters.state || 'all'} (S) · function ${runs.filters.function || 'all'} (F)`}
        {...fromList(runs, runs.data?.runs, paging, MESSAGES.loadRequests)}
        empty={MESSAGES.noRequests}
        nameOf={(r) => r.name}
        cols={[
          { header: 'Name', keep: true, get: (r) => r.name },
          { header: 'Function', get: (r) => r.function },
          { header: 'Status', keep: true, get: (r) => r.state },
          { header: 'Message', get: (r) => r.message, danger: (r) => !!r.message, max: 40 },
          { header: 'Created', get: (r) => formatTime(r.createdAt), at: (r) => r.createdAt },
          { header: 'Upload', get: (r) => r.rend?.name },
        ]}
        onOpen={(r) => {
          nav.setLabel(r.stamp, r.name);
          if (r.function === 'shrink' && r.quote) nav.go(screenPath('quoteDetails', { clientId, projectId, quoteId: r.quote }));
          else nav.go(screenPath('runDetails', { clientId, projectId, runId: r.stamp }));
        }}
        rename={runs.rename}
        remove={runs.remove}
        onNew={() => nav.go(screenPath('createFitRun', { clientId, projectId }))}
        onKey={(input) => {
          if (input === 'S')
            runs.setFilters({ ...runs.filters, state: nextFilter(RUN_STATES, runs.filters.state as (typeof RUN_STATES)[number]) });
          else if (input === 'F') runs.setFilters({ ...runs.filters, function: nextFilter(RUN_FUNCTIONS, runs.filters.function) });
          else if (input === 's') nav.go(screenPath('createShrinkRun', { clientId, projectId }));
          else return false;
          return true;
        }}
        footer={
          anyMessage ? (
            <Text color="red">
              Contact Support: {nav.io.baseUrl}
              {CONTACT_PATH}
            </Text>
          ) : null
        }
      />
    </Box>
  );
}
