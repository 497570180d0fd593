// Models of a project: the general models, and the client's own (rename, remove, Create A New Model).
import { useEffect, useState } from 'react';
import { Box, Text, useInput } from 'ink';
import { CONTACT_PATH, MESSAGES, formatTime, screenPath, type Model } from '@portal/core';
import { useModels, useNotify } from '@portal/core/react';
import { ListView, useLongList } from '../components/ListView';
import { fromList } from '../components/lists';
import { Table } from '../components/Table';
import { useLabel, useNav } from '../ui/context';

/** General models shown at most (the operator's list is short); the screen's own list gets the rest of the height. */
const GENERAL_MAX = 5;

export default function ModelsScreen() {
  const nav = useNav();
  const { clientId, projectId } = nav.params as { clientId: string; projectId: string };
  const paging = useLongList();
  const models = useModels(clientId, projectId, paging);
  useLabel(clientId, models.data?.client.name);
  useLabel(projectId, models.data?.project.name);
  const [showGeneral, setShowGeneral] = useState(true);
  useInput(
    (input) => {
      if (input === 'g') setShowGeneral((g) => !g);
    },
    { isActive: nav.capture === 'none' && !nav.menuFocused },
  );
  const general = models.data?.general ?? [];
  // Models are the project's trained data transformations: a failed load says so (SPEC section 8).
  const own = fromList(models, models.data?.own, paging, MESSAGES.loadTransformations);
  const failed = own.error;
  const notify = useNotify();
  useEffect(() => {
    if (failed) notify(failed, 'error');
  }, [failed, notify]);
  return (
    <Box flexDirection="column">
      <Text bold>General Models {showGeneral ? '' : '(g to show)'}</Text>
      {showGeneral ? (
        general.length ? (
          <Table<Model>
            rows={general.slice(0, GENERAL_MAX)}
            width={nav.size.columns - nav.size.menu - 2}
            keyOf={(m) => m.stamp}
            cols={[
              { header: 'Name', keep: true, get: (m) => m.name },
              { header: 'Description', get: (m) => m.desc, max: 40 },
              { header: 'Message', get: (m) => m.message, danger: (m) => !!m.message },
              { header: 'Created', get: (m) => formatTime(m.createdAt), at: (m) => m.createdAt },
            ]}
          />
        ) : (
          <Text color={failed ? 'red' : undefined}>{models.loading ? 'Loading…' : (failed ?? MESSAGES.noModels)}</Text>
        )
      ) : null}
      <Text> </Text>
      <ListView<Model>
        reserve={3 + (showGeneral ? Math.min(general.length, GENERAL_MAX) + 1 : 0) + 2}
        title="Your Models"
        {...own}
        empty={MESSAGES.noModels}
        nameOf={(m) => m.name}
        cols={[
          { header: 'Name', keep: true, get: (m) => m.name },
          { header: 'Status', keep: true, get: (m) => m.state },
          { header: 'Message', get: (m) => m.message, danger: (m) => !!m.message },
          { header: 'Created', get: (m) => formatTime(m.createdAt), at: (m) => m.createdAt },
          { header: 'Upload', get: (m) => m.rend?.name },
        ]}
        rename={models.rename}
        remove={models.remove}
        onNew={() => nav.go(screenPath('createFitRun', { clientId, projectId }))}
        footer={
          <Box flexDirection="column">
            {models.data?.own.some((m) => m.message) ? (
              <Text color="red">
                Contact Support: {nav.io.baseUrl}
                {CONTACT_PATH}
              </Text>
            ) : null}
            <Text color="cyan">[ n Create A New Model ] g show/hide general models</Text>
          </Box>
        }
      />
    </Box>
  );
}
