// The card shared by the forgot-password and reset-password pages: a titled form with a failure line, which turns
// into a success notice and a link once its one call has gone through. Each page's texts are a row of PASSWORD_FLOWS.
import { useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Button, Link, Paper, Stack, Typography } from '@mui/material';
import { MESSAGES } from '@portal/core';
import { useAuth } from '@portal/core/react';
import { FormFailure } from './FormFailure';
import { useFields } from './BoundField';

interface FlowTexts {
  title: string;
  /** Text above the failure line. */
  intro?: string;
  /** The submit button's label. */
  submit: string;
  doneMessage: string;
  doneLink: string;
  /** Between the fields. */
  spacing: number;
}

const PASSWORD_FLOWS: Record<'forgot' | 'reset', FlowTexts> = {
  forgot: {
    title: 'Forgot Password',
    intro: 'Enter the email you signed up with and we will send you a link to set a new password.',
    submit: 'Send reset link',
    doneMessage: MESSAGES.resetStarted,
    doneLink: 'Back to login',
    spacing: 2,
  },
  reset: { title: 'Reset Password', submit: 'Change password', doneMessage: MESSAGES.passwordChanged, doneLink: 'Login', spacing: 1 },
};

/**
 * The form's state: its fields (and their messages), set with `set`; sending (busy), the failure to show, and whether
 * the call went through.
 */
export function usePasswordFlow<F extends object>(initial: F) {
  const { fields, set } = useFields(initial);
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
  return { fields, set, failure, done, busy, send };
}

export function PasswordFlowCard(props: {
  /** Which of the two pages it is: its texts. */
  page: keyof typeof PASSWORD_FLOWS;
  flow: ReturnType<typeof usePasswordFlow>;
  /** Checks the fields and sends (the form's own submit is prevented). */
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { flow } = props;
  const texts = PASSWORD_FLOWS[props.page];
  const { title } = texts;
  const id = `${props.page}-title`;
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
            {texts.doneMessage}
          </Alert>
          <Link component={RouterLink} to="/">
            {texts.doneLink}
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
          <Stack spacing={texts.spacing}>
            {texts.intro && <Typography variant="body2">{texts.intro}</Typography>}
            <FormFailure message={flow.failure} />
            {props.children}
            <Button type="submit" variant="contained" size="large" disabled={flow.busy}>
              {texts.submit}
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
