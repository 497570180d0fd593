// Where the account is signed in: created, last used, address and user agent as the server saw them, this session
// marked; d ends one (not this one: that is Logout), o ends every other. core's useSessions holds the calls.
import { useRef, useState } from 'react';
import { Box, Text, useInput } from 'ink';
import { exactTime, relativeTime } from '@portal/core';
import { useSessions, type SessionRow } from '@portal/core/react';
import { ListView } from '../../components/ListView';
import { useCapture, useHelp, useNav } from '../../ui/context';

/** How a session is named in the question that ends it. */
const sessionName = (x: SessionRow) => `the session of ${x.userAgent ?? 'an unknown program'} from ${x.address ?? 'an unknown address'}`;

export function SessionsPanel({ reserve }: { reserve: number }) {
  const nav = useNav();
  const s = useSessions();
  const [asking, setAsking] = useState(false);
  const askingRef = useRef(false);
  const ask = (on: boolean) => {
    askingRef.current = on;
    setAsking(on);
  };
  useCapture('all', asking);
  useHelp('←→ section · ↑↓ move · d end · o end all others · / filter');
  const others = (s.list ?? []).filter((x) => !x.current).length;
  useInput(
    (input, key) => {
      if (!askingRef.current) return;
      if (input === 'y' || input === 'Y') {
        ask(false);
        void s.endOthers();
      } else if (input === 'n' || input === 'N' || key.escape) ask(false);
    },
    { isActive: asking },
  );
  return (
    <Box flexDirection="column">
      <ListView<SessionRow>
        title="Sessions"
        rows={s.list}
        loading={s.list === undefined}
        empty="No sessions."
        keyOf={(x) => x.id}
        nameOf={sessionName}
        cols={[
          // A browser's user agent runs past 100 characters: it gives way first (cut, up to 48 columns when there is
          // room), so the address and times stay whole; the details are in the question that ends a session.
          { header: 'User agent', max: 48, get: (x) => `${x.current ? '(this session) ' : ''}${x.userAgent ?? 'Unknown'}` },
          { header: 'Address', keep: true, get: (x) => x.address ?? 'Unknown' },
          { header: 'Created', get: (x) => exactTime(x.createdAt), at: (x) => x.createdAt },
          { header: 'Last used', get: (x) => relativeTime(x.lastUsedAt), at: (x) => x.lastUsedAt },
        ]}
        remove={async (id) => {
          await s.end(id);
          return null;
        }}
        removeVerb="End"
        removable={(x) => !x.current}
        onKey={(input) => {
          if (input !== 'o' || s.busy || others === 0) return false;
          ask(true);
          return true;
        }}
        active={!asking && !nav.menuFocused}
        reserve={reserve}
      />
      {asking ? <Text color="yellow">{`End all ${others} other session${others === 1 ? '' : 's'}? (y/n)`}</Text> : null}
      {s.busy ? <Text dimColor>Working…</Text> : null}
      {s.problem ? <Text color="red">{s.problem}</Text> : null}
    </Box>
  );
}
