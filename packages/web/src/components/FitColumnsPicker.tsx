// The fit form's column picks for the chosen upload (core's useFitColumns): target, inputs with the plan's cap, task,
// and a line on each of SPEC's three sizes.
import type { ReactNode } from 'react';
import {
  Box,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Link,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { CONTACT_PATH, isUpgradeMessage, PLAN_LIMITS, TASKS, type PlanName, type TaskName } from '@portal/core';
import type { FitColumnsState } from '@portal/core/react';

/** A plan-limit sentence with SPEC's upgrade link (Individual plan). */
export function PlanHelper({ message, plan }: { message: string | undefined | null; plan: PlanName }): ReactNode {
  if (!message) return ' ';
  if (!isUpgradeMessage(message, plan)) return message;
  return (
    <>
      {message}.{' '}
      <Link href={CONTACT_PATH} target="_blank" rel="noopener" sx={{ color: 'inherit', fontWeight: 600 }}>
        Upgrade
      </Link>
    </>
  );
}

interface Props {
  state: FitColumnsState;
  plan: PlanName;
  upload: string;
  /** Errors of the last submit (the picks' own, and the output size's). */
  errors: Partial<Record<'target' | 'inputs' | 'task' | 'outputs', string>>;
  submitted: boolean;
}

export function FitColumnsPicker({ state, plan, upload, errors, submitted }: Props) {
  const { columns, picks } = state;
  // Before a submit only the cap and a wrong task are shown; after it, every problem of the picks as they are now.
  const shown = submitted ? state.errors : { task: state.errors.task };
  const describe = (c: (typeof columns)[number]) => `${c.type}${c.missing ? `, ${c.missing} missing` : ''}`;
  const maxOut = PLAN_LIMITS[plan].outputColumns;
  return (
    <Box component="section" aria-label="Columns" sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 2 }}>
      <Typography variant="h2" sx={{ fontSize: '1.05rem', mb: 1 }}>
        Columns of {upload}
      </Typography>
      <Stack spacing={2}>
        <TextField
          select
          label="Target column"
          name="targetColumn"
          value={picks.target}
          onChange={(e) => state.setTarget(e.target.value)}
          error={!!shown.target}
          helperText={shown.target ?? state.lines.target}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          fullWidth
        >
          <MenuItem value="">
            <em>None picked</em>
          </MenuItem>
          {columns.map((c) => (
            <MenuItem key={c.name} value={c.name}>
              {c.name} ({describe(c)})
            </MenuItem>
          ))}
        </TextField>
        <FormControl component="fieldset" error={!!(shown.inputs ?? state.cap)}>
          <FormLabel component="legend">Input columns</FormLabel>
          <FormGroup row>
            {columns.map((c) => (
              <FormControlLabel
                key={c.name}
                control={
                  <Checkbox
                    checked={picks.inputs.includes(c.name)}
                    disabled={c.name === picks.target}
                    onChange={() => state.toggleInput(c.name)}
                  />
                }
                label={
                  <span>
                    {c.name}{' '}
                    <Typography component="span" variant="body2" color="text.secondary">
                      {c.name === picks.target ? 'target' : describe(c)}
                    </Typography>
                  </span>
                }
              />
            ))}
          </FormGroup>
          <FormHelperText component="div">
            {(shown.inputs ?? state.cap) && (
              <Box>
                <PlanHelper message={shown.inputs ?? state.cap} plan={plan} />
              </Box>
            )}
            <Box>{state.lines.inputs}</Box>
            {state.unlisted > 0 && <Box>{`${state.unlisted} more columns are not listed: a fit by name reads the listed ones.`}</Box>}
          </FormHelperText>
        </FormControl>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            select
            label="Task"
            name="task"
            value={picks.task}
            onChange={(e) => state.setTask(e.target.value as TaskName)}
            error={!!shown.task}
            helperText={shown.task ?? 'Inferred from the target: classes → classification, numbers → regression.'}
            sx={{ flex: 1 }}
          >
            {TASKS.map((t) => (
              <MenuItem key={t} value={t}>
                {t}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={`Output column size (1-${maxOut})`}
            name="outputs"
            type="number"
            value={state.outputs === '' ? String(state.sizes.outputs) : state.outputs}
            onChange={(e) => state.setOutputs(e.target.value)}
            error={!!errors.outputs}
            helperText={<PlanHelper message={errors.outputs ?? state.lines.outputs} plan={plan} />}
            slotProps={{ htmlInput: { min: 1, max: maxOut, step: 1, inputMode: 'numeric' } }}
            sx={{ flex: 1 }}
          />
        </Stack>
      </Stack>
    </Box>
  );
}
