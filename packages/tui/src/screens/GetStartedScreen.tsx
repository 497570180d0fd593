// Get started: a new account's steps to its first result, each ticked from the account's data (core's useGetStarted).
import { useState } from 'react';
import { Box, Text, useInput } from 'ink';
import { GET_STARTED_TITLE, memoryStartDismissStore, startProgress } from '@portal/core';
import { useGetStarted } from '@portal/core/react';
import { useNav } from '../ui/context';

// Kept for the session only until the terminal keeps it in its config file.
const DISMISSED = memoryStartDismissStore();

export default function GetStartedScreen() {
  const nav = useNav();
  const path = useGetStarted(DISMISSED);
  const [at, setAt] = useState(0);
  useInput(
    (input, key) => {
      if (key.upArrow) setAt((i) => Math.max(0, i - 1));
      else if (key.downArrow) setAt((i) => Math.min(path.steps.length - 1, i + 1));
      else if (key.return && path.steps[at]) nav.go(path.steps[at].path);
      else if (input === 'x') (path.dismissed ? path.restore : path.dismiss)();
    },
    { isActive: !nav.menuFocused },
  );
  if (path.loading && path.steps.length === 0) return <Text>Loading…</Text>;
  return (
    <Box flexDirection="column">
      <Text bold>
        {GET_STARTED_TITLE} <Text dimColor>({startProgress(path.steps)})</Text>
      </Text>
      {path.steps.map((step, i) => (
        <Text key={step.id} inverse={i === at}>
          {step.done ? '✓' : '○'} {step.label}
        </Text>
      ))}
      {path.dismissed ? <Text dimColor>Hidden from the first screen; x shows it again.</Text> : null}
    </Box>
  );
}
