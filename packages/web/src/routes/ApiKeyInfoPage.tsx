// A client API key's details: the Linux 64-bit installer command, its token and a Python example, each copied on click.
import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { Box, Button, Stack, Typography } from '@mui/material';
import { installCommand, maskToken, MESSAGES, pythonExample, screenPath } from '@portal/core';
import { Page, Section } from '../components/Page';
import { Loading } from '../components/Loading';
import { useApiKeys, useCopy, type CopyWhat } from '@portal/core/react';
import { useCrumbNames } from '../layout/ChromeContext';
import { Time } from '../components/Time';
import { NotFound } from '../components/NotFound';

function CopyBlock({
  what,
  label,
  text,
  copied,
  onCopy,
  code = false,
  shown,
  extra,
}: {
  what: CopyWhat;
  label: string;
  text: string;
  copied: CopyWhat | null;
  onCopy(what: CopyWhat, text: string): void;
  code?: boolean;
  /** What the block shows when it is not the text itself (a masked token); copying always takes the text. */
  shown?: string;
  /** Another button beside Copy (Reveal). */
  extra?: ReactNode;
}) {
  const done = copied === what;
  return (
    <Section
      title={label}
      actions={
        <Box sx={{ display: 'flex', gap: 1 }}>
          {extra}
          <Button
            variant="outlined"
            size="small"
            onClick={() => onCopy(what, text)}
            aria-label={done ? `${label} copied` : `Copy ${label.toLowerCase()}`}
          >
            {done ? 'Copied' : 'Copy'}
          </Button>
        </Box>
      }
    >
      <Box
        component="pre"
        tabIndex={0}
        role="button"
        aria-label={`${label}: click to copy`}
        onClick={() => onCopy(what, text)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            onCopy(what, text);
          }
        }}
        sx={{
          m: 0,
          p: 1.5,
          bgcolor: '#11191d',
          color: '#e0f2f1',
          borderRadius: 1,
          overflowX: 'auto',
          cursor: 'copy',
          fontSize: '0.85rem',
          ...(code ? { whiteSpace: 'pre' } : { whiteSpace: 'pre-wrap', wordBreak: 'break-all' }),
        }}
      >
        {shown ?? text}
      </Box>
    </Section>
  );
}

export default function ApiKeyInfoPage() {
  const { clientId = '', apikeyId = '' } = useParams();
  const { copied, copy: copyWith } = useCopy();
  const copy = (what: CopyWhat, text: string) => void copyWith(what, text, (t) => navigator.clipboard.writeText(t));
  const loaded = useApiKeys(clientId);
  // The token is a secret: masked until the user asks to see it (copying works either way).
  const [revealed, setRevealed] = useState(false);
  const key = loaded.data?.keys.find((k) => k.clue === apikeyId);
  useCrumbNames({ client: loaded.data?.client?.name, key: key?.name });
  if (loaded.loading && !loaded.data) return <Loading />;
  if (!key)
    return (
      <NotFound
        title={MESSAGES.apiKeyNotFound}
        crumb={{ key: MESSAGES.apiKeyNotFound }}
        back={{ label: 'Back to API keys', to: screenPath('apikeys', { clientId }) }}
      />
    );
  const origin = window.location.origin;
  const install = installCommand(origin, key.pack.linux64);
  return (
    <Page title={key.name}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', columnGap: 3, rowGap: 0.5 }}>
        <Typography variant="body2">ID: {key.clue}</Typography>
        <Typography variant="body2">Installs: {key.installs}</Typography>
        <Typography variant="body2">
          Last installed: <Time at={key.installedAt} />
        </Typography>
      </Stack>
      <CopyBlock what="code" label="Installer (Linux 64-bit)" text={install} copied={copied} onCopy={copy} />
      <CopyBlock
        what="token"
        label="Token"
        text={key.token}
        shown={revealed ? undefined : maskToken(key.token)}
        copied={copied}
        onCopy={copy}
        extra={
          <Button variant="outlined" size="small" onClick={() => setRevealed((r) => !r)} aria-pressed={revealed}>
            {revealed ? 'Hide token' : 'Reveal token'}
          </Button>
        }
      />
      <CopyBlock
        code
        what="example"
        label="Python example"
        text={pythonExample(origin, key.token, clientId)}
        shown={revealed ? undefined : pythonExample(origin, maskToken(key.token), clientId)}
        copied={copied}
        onCopy={copy}
      />
    </Page>
  );
}
