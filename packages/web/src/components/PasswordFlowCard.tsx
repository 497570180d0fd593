// The card shared by the forgot-password and reset-password pages: a titled form with a failure line, which turns
// into a success notice and a link once its one call has gone through.
import { useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Button, Link, Paper, Stack, Typography } from '@mui/material';
import { useAuth } from '@portal/core/react';
import { FormFailure } from './FormFailure';

/** The form's state: sending (busy), the failure to show, and whether the call went through. */
export function usePasswordFlow() {
  // The card shows the failure itself, so core's hook does not notify it too.
  const auth = useAuth({ notifyFailures: false });
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  /** Runs one of core's auth actions (null on success, else the message to show). */
  const send = async (action: (auth: ReturnType<typeof useAuth>) => Promise<string | null>) => {
    setBusy(true);
    setFailure(null);
    const failed = await action(auth);
    setBusy(false);
    if (failed) setFailure(failed);
    else setDone(true);
  };
  return { failure, done, busy, send };
}

export function PasswordFlowCard(props: {
  id: string;
  title: string;
  flow: ReturnType<typeof usePasswordFlow>;
  /** Checks the fields and sends (the form's own submit is prevented). */
  onSubmit: () => void;
  /** The submit button's label. */
  submit: string;
  doneMessage: string;
  doneLink: string;
  spacing?: number;
  /** Text above the failure line. */
  intro?: ReactNode;
  children: ReactNode;
}) {
  const { id, title, flow } = props;
  useEffect(() => {
    document.title = `${title} · Portal`;
  }, [title]);
  return (
    <Paper component="section" aria-labelledby={id} sx={{ p: { xs: 2.5, sm: 4 } }}>
      <Typography variant="h1" id={id} sx={{ mb: 2 }}>
        {title}
      </Typography>
      {flow.done ? (
        <Stack spacing={2}>
          <Alert severity="success" role="status">
            {props.doneMessage}
          </Alert>
          <Link component={RouterLink} to="/">
            {props.doneLink}
          </Link>
        </Stack>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            props.onSubmit();
          }}
          noValidate
        >
          <Stack spacing={props.spacing ?? 2}>
            {props.intro}
            <FormFailure message={flow.failure} />
            {props.children}
            <Button type="submit" variant="contained" size="large" disabled={flow.busy}>
              {props.submit}
            </Button>
            <Link component={RouterLink} to="/">
              Back to login
            </Link>
          </Stack>
        </form>
      )}
    </Paper>
  );
}
