// Get started: a new account's steps to its first result, each ticked from the account's data (core's useGetStarted),
// the same steps as the web's page. Enter opens a step's screen; x puts the path away (kept in the config file, per
// user and account) or shows it again. My Account shows the steps too (StartSteps) while the path is not put away.
import { useState } from 'react';
import { Box, Text, useInput } from 'ink';
import {
  GET_STARTED_TITLE,
  memoryStartDismissStore,
  showsGetStarted,
  startProgress,
  type StartDismissStore,
  type StartStep,
} from '@portal/core';
import { useGetStarted, type GetStarted } from '@portal/core/react';
import { useNav } from '../ui/context';

/** Where the path is kept put away when the UI was given nowhere to keep it (tests). */
const IN_MEMORY = memoryStartDismissStore();

/** The store of put-away paths this UI was given (the config file), else one for this run. */
export const useStartStore = (): StartDismissStore => useNav().io.startDismissals ?? IN_MEMORY;

/** One line per step: ticked or not, its label, and (when there is room) the `portal` command that does it. */
export function StartSteps({ steps, at }: { steps: readonly StartStep[]; at?: number }) {
  return (
    <Box flexDirection="column">
      {steps.map((step, i) => (
        <Text key={step.id} inverse={i === at} wrap="truncate-end">
          {i === at ? '› ' : '  '}
          <Text color={step.done ? 'green' : undefined}>{step.done ? '✓' : '○'}</Text> {step.label.padEnd(19)}
          <Text dimColor>{step.command}</Text>
        </Text>
      ))}
    </Box>
  );
}

/** How many lines StartPanel takes: none once put away or complete, else a gap, a title and a line per step. */
export const startPanelRows = (path: GetStarted) => (showsGetStarted(path.steps, path.dismissed) ? path.steps.length + 2 : 0);

/** The path on the first screen: its steps while not put away and not complete; g opens the Get started screen. */
export function StartPanel({ path }: { path: GetStarted }) {
  const nav = useNav();
  useInput((input) => void (input === 'g' && nav.capture === 'none' && nav.go('/get-started')), { isActive: !nav.menuFocused });
  if (!startPanelRows(path)) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold wrap="truncate-end">
        {GET_STARTED_TITLE} <Text dimColor>({startProgress(path.steps)}) · g opens it</Text>
      </Text>
      <StartSteps steps={path.steps} />
    </Box>
  );
}

export default function GetStartedScreen() {
  const nav = useNav();
  const path = useGetStarted(useStartStore());
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
  const step = path.steps[at];
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {GET_STARTED_TITLE} <Text dimColor>({startProgress(path.steps)})</Text>
      </Text>
      <StartSteps steps={path.steps} at={at} />
      {step ? (
        <Box marginTop={1}>
          <Text wrap="wrap">{step.hint}</Text>
        </Box>
      ) : null}
      <Text dimColor wrap="truncate-end">
        {path.dismissed ? 'Hidden from My Account; x shows it there again.' : 'x hides this path from My Account (it stays here).'}
      </Text>
    </Box>
  );
}
