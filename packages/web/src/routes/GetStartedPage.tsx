// Get started: a new account's steps to its first result, each ticked from the account's data and linking to its
// screen (core's useGetStarted); dismissable, and found again from the sidebar.
import { Link as RouterLink } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  LinearProgress,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  SvgIcon,
  Typography,
} from '@mui/material';
import { GET_STARTED_TITLE, MESSAGES, startProgress, type StartDismissStore } from '@portal/core';
import { useGetStarted } from '@portal/core/react';
import { Page } from '../components/Page';

/** The dismissal, kept in this browser per user and client. */
export const startDismissStore: StartDismissStore = {
  get: (key) => {
    try {
      return localStorage.getItem(`portal.${key}`) === '1';
    } catch {
      return false;
    }
  },
  set: (key, dismissed) => {
    try {
      if (dismissed) localStorage.setItem(`portal.${key}`, '1');
      else localStorage.removeItem(`portal.${key}`);
    } catch {
      // Storage refused (private mode): the path shows again next visit.
    }
  },
};

const DONE = 'M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm-2 15-5-5 1.41-1.41L10 14.17l7.59-7.59L19 8l-9 9z';
const TO_DO =
  'M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm0 18c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8z';

export default function GetStartedPage() {
  const path = useGetStarted(startDismissStore);
  const done = path.steps.length > 0 && !path.next;
  return (
    <Page
      title={GET_STARTED_TITLE}
      maxWidth={760}
      actions={
        path.dismissed ? <Button onClick={path.restore}>Show on sign-up again</Button> : <Button onClick={path.dismiss}>Dismiss</Button>
      }
    >
      {path.loading && path.steps.length === 0 ? <LinearProgress aria-label="Loading" /> : null}
      {path.error && path.steps.length === 0 ? <Alert severity="error">{path.error.display || MESSAGES.unexpected}</Alert> : null}
      {path.steps.length > 0 ? (
        <>
          <Typography color="text.secondary" sx={{ mb: 1 }}>
            {done ? 'All done: your account is set up.' : `Four steps to your first result. ${startProgress(path.steps)}.`}
          </Typography>
          <List aria-label="Steps">
            {path.steps.map((step) => (
              <ListItem key={step.id} disablePadding data-step={step.id} data-done={step.done ? 'true' : 'false'}>
                <ListItemButton component={RouterLink} to={step.path}>
                  <ListItemIcon>
                    <SvgIcon color={step.done ? 'success' : 'action'} titleAccess={step.done ? 'Done' : 'To do'}>
                      <path d={step.done ? DONE : TO_DO} />
                    </SvgIcon>
                  </ListItemIcon>
                  <ListItemText
                    primary={step.label}
                    secondary={step.hint}
                    slotProps={{
                      primary: { sx: step.done ? { textDecoration: 'line-through', color: 'text.secondary' } : { fontWeight: 600 } },
                    }}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
          {path.dismissed ? (
            <Box sx={{ mt: 1 }}>
              <Typography variant="body2" color="text.secondary">
                Dismissed: this page stays in the sidebar under My Account.
              </Typography>
            </Box>
          ) : null}
        </>
      ) : null}
    </Page>
  );
}
