// The page of an id that does not exist (or no longer does, or is another client's): SPEC's words where it has them
// ('Request not found'), the same style elsewhere, and the way back; the breadcrumb above it still leads home.
import { Link as RouterLink } from 'react-router-dom';
import { Button, Typography } from '@mui/material';
import { MESSAGES, screenPath, type CrumbNames } from '@portal/core';
import { useChrome, useCrumbNames } from '../layout/ChromeContext';
import { Page } from './Page';

const GENERIC: Required<CrumbNames> = { client: 'Client', project: 'Project', run: 'Request', quote: 'Quote', key: 'API key' };

/** `crumb` names the missing thing's breadcrumb (and sidebar title) with the page's title, never a loading placeholder. */
export function NotFound({ title, back, crumb }: { title: string; back: { label: string; to: string }; crumb: CrumbNames }) {
  // The names above the missing thing may never load either (an unknown project has no client name to give): they
  // read as their kind rather than a placeholder that never ends.
  const { names } = useChrome();
  useCrumbNames({ ...GENERIC, ...Object.fromEntries(Object.entries(names).filter(([, v]) => v)), ...crumb });
  return (
    <Page title={title}>
      <Typography role="status" sx={{ mb: 2 }}>
        It may have been removed, or the link is not quite right.
      </Typography>
      <Button variant="contained" component={RouterLink} to={back.to}>
        {back.label}
      </Button>
    </Page>
  );
}

/** A page of a client account that is not there (or not the user's): no Retry, since trying again cannot help. */
export function ClientNotFound() {
  return (
    <NotFound
      title={MESSAGES.clientNotFound}
      crumb={{ client: MESSAGES.clientNotFound }}
      back={{ label: 'Back to My Account', to: '/account' }}
    />
  );
}

/** A project page (uploads, requests, models) of a project that is not there. */
export function ProjectNotFound({ clientId }: { clientId: string }) {
  return (
    <NotFound
      title={MESSAGES.projectNotFound}
      crumb={{ project: MESSAGES.projectNotFound }}
      back={{ label: 'Back to projects', to: screenPath('projects', { clientId }) }}
    />
  );
}
