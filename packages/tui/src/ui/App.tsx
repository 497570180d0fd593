// The interactive UI: history of paths, the chrome (header with breadcrumbs, menu, notifications, help line) and keys.
import { useCallback, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { Box, Text, useApp, useInput, useStdout } from 'ink';
import {
  CONTACT_PATH,
  MESSAGES,
  notifyMs,
  SCREEN_BY_ID,
  breadcrumbs,
  matchScreen,
  signInThen,
  type ApiClient,
  type ScreenId,
} from '@portal/core';
// Notices carry names from the server: escaped for the terminal like every other server text.
import { printable } from '@portal/core';
// Not the '@portal/core/react' index: through it the first frame's chunk would also load zod and core's schemas.
import { PortalProvider, type FocusSignal, type NotifyKind } from '@portal/core/react/context';
import { MENU_WIDTH, MENU_FOLDS_BELOW, NavContext, type Capture, type Nav, type UiIo } from './context';
import { appHelp, fitHelp, helpParts, packHelp } from './help';
import { loadScreen, loadedScreen } from './routes';
import type MenuType from './Menu';

/** A module loaded on demand: undefined until it arrives, then re-renders with it. */
function useLoaded<T>(get: () => T | undefined, load: () => Promise<T>, key: unknown): T | undefined {
  const [, setTick] = useState(0);
  const value = get();
  useEffect(() => {
    if (value !== undefined) return;
    let live = true;
    void load().then(() => live && setTick((t) => t + 1));
    return () => void (live = false);
  }, [key, value, load]);
  return value;
}

// The menu loads the permission list (and with it core's schemas): it comes a moment after the first frame.
let menuModule: typeof MenuType | undefined;
const loadMenu = async () => (menuModule ??= (await import('./Menu')).default);

export interface AuthFailures {
  subscribe(fn: (message: string) => void): () => void;
}

export interface AppProps {
  api: ApiClient;
  io: UiIo;
  /** Where to start (a path of core's route table); defaults to /account when signed in, else /. */
  initial?: string;
  authFailures?: AuthFailures;
  /** Ctrl+C: the UI ends as an interrupted program (exit 130). */
  onInterrupt?(): void;
  /** The terminal's focus reports (TerminalIn): focus coming back reads again what went stale meanwhile. */
  focus?: FocusSignal;
}

interface Notice {
  id: number;
  message: string;
  kind: NotifyKind;
}

// Every screen's keys: a Record, so a screen added to core's table without its help line does not compile.
const HELP: Record<ScreenId, string> = {
  login: 'Tab/↑↓ fields · Enter submit',
  signup: 'Tab/↑↓ fields · Space tick · Enter submit',
  forgotPassword: 'Tab/↑↓ fields · Enter submit',
  resetPassword: 'Tab/↑↓ fields · Enter submit',
  // Each section of the account screen says its own keys (useHelp); this is the client accounts' line.
  account: '←→ section · ↑↓ move · Enter open · / filter',
  // u upgrades only below the top plan: the screen offers it (with its key) when the account can upgrade.
  getStarted: '↑↓ move · Enter open a step · x hide this path',
  plan: '',
  apikeys: '↑↓ move · Enter details · / filter · n create · r rename · d remove',
  apikeyInfo: 'c copy installer · t copy token · e copy example · v reveal token',
  integrations: '↑↓ move · / filter · n create · r rename · d remove',
  createIntegration: 'Tab/↑↓ fields · Enter submit',
  projects: '↑↓ move · Enter open · / filter · n create · r rename · d remove',
  models: '↑↓ move · / filter · n create a model · r rename · d remove',
  runs: '↑↓ move · Enter open · / filter · S status · F function · n fit request · s shrink request · r rename · d remove',
  uploads: '↑↓ move · / filter · n upload files · p preview · r rename · d remove',
  createFitRun: 'Tab/↑↓ fields · Space tick · Enter submit',
  createShrinkRun: 'Tab/↑↓ fields · Enter choose/submit',
  runDetails: 'Enter/D download results · R run again',
  quoteDetails: 'Enter open the request',
  members: '↑↓ move · / filter · n invite · o owner · m member · d remove · l leave · i invitations',
  audit: '↑↓ move · / filter · > older · < newer · a next action filter',
  invite: 'Enter accept',
  emailConfirm: 'Enter confirm',
  usage: 'p period (7, 30, 90 days) · ↑↓ quotes · Enter open a quote',
  webhooks: '↑↓ move · Enter deliveries · n add · t test · p pause/resume · k rotate secret · r rename · d remove',
};

function toPath(path: string): { path: string; query: URLSearchParams } {
  const [p, q = ''] = path.split('?');
  return { path: p, query: new URLSearchParams(q) };
}

/** The terminal's size, following resizes (Ink redraws the frame; the layout reads the new size from here). */
function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => void stdout.off('resize', onResize);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stdout]);
  return size;
}

/** Ctrl+O opens and closes the menu from every screen, forms included (their fields ignore control keys). */
const isMenuKey = (input: string, key: { ctrl: boolean }) => key.ctrl && input === 'o';

export function App(props: AppProps) {
  const { api, io } = props;
  const { exit } = useApp();
  const size = useTerminalSize();
  const [history, setHistory] = useState<string[]>(() => [props.initial ?? (api.tokens.get() ? '/account' : '/')]);
  // History entries (by position) whose form was submitted: Esc goes back past them, not into them again.
  const submitted = useRef(new Set<number>());
  const [copied, setCopied] = useState<{ id: number; text: string; what?: string } | null>(null);
  const [labels, setLabels] = useState<Record<string, string>>({});
  const [capture, setCapture] = useState<Capture>('none');
  const [notices, setNotices] = useState<Notice[]>([]);
  const [menuFocus, setMenuFocus] = useState(false);
  const [allKeys, setAllKeys] = useState(false);
  // A screen's own help line for what it shows now (useHelp), else the screen's line below.
  const [screenHelp, setHelp] = useState<string | null>(null);
  const seq = useRef(0);
  const { stdout } = useStdout();
  const copy = useCallback(
    async (text: string, what?: string) => {
      // What was copied is said inside the frame (not printed above it, into the scrollback) for a moment.
      const id = ++seq.current;
      setCopied({ id, text, what });
      setTimeout(() => setCopied((c) => (c?.id === id ? null : c)), notifyMs()).unref?.();
      if (io.copy) return io.copy(text);
      // OSC 52 asks the terminal (even over SSH) to put the text on the clipboard. It moves no cursor and prints
      // nothing, so it goes straight to the terminal without disturbing Ink's frame.
      stdout.write(`\x1b]52;c;${Buffer.from(text).toString('base64')}\x07`);
    },
    [io, stdout],
  );

  const notifier = useMemo(
    () => ({
      notify(message: string, kind: NotifyKind = 'default') {
        const id = ++seq.current;
        setNotices((n) => [...n.filter((x) => x.message !== message), { id, message, kind }].slice(-3));
        setTimeout(() => setNotices((n) => n.filter((x) => x.id !== id)), notifyMs(kind)).unref?.();
      },
    }),
    [],
  );

  const current = history[history.length - 1];
  const { path, query } = toPath(current);
  const matched = matchScreen(path) ?? { screen: SCREEN_BY_ID.login, params: {} };
  const go = useCallback((p: string) => {
    setMenuFocus(false);
    setHistory((h) => (h[h.length - 1] === p ? h : [...h, p]));
  }, []);
  const back = useCallback(
    () =>
      setHistory((h) => {
        let n = h.length - 1;
        while (n > 1 && submitted.current.has(n - 1)) n--;
        if (n < 1) return h;
        for (const i of [...submitted.current]) if (i >= n) submitted.current.delete(i);
        return h.slice(0, n);
      }),
    [],
  );
  const reset = useCallback((p: string) => {
    setMenuFocus(false);
    submitted.current.clear();
    setHistory([p]);
  }, []);
  const historyLength = useRef(history.length);
  historyLength.current = history.length;
  const markSubmitted = useCallback(() => void submitted.current.add(historyLength.current - 1), []);
  const setLabel = useCallback((id: string | undefined, name: string | undefined) => {
    if (id && name) setLabels((l) => (l[id] === name ? l : { ...l, [id]: name }));
  }, []);

  // SPEC section 6: a missing or expired token goes back to the root with its message. The login there brings the
  // person back to the screen that asked for the sign-in (`/?next=PATH`, core's signInThen, as the web portal does).
  const currentRef = useRef(current);
  currentRef.current = current;
  const toLogin = useCallback(() => {
    const here = currentRef.current;
    reset(matchScreen(toPath(here).path)?.screen.auth ? signInThen(here) : '/');
  }, [reset]);
  useEffect(
    () =>
      props.authFailures?.subscribe((message) => {
        notifier.notify(message, 'error');
        toLogin();
      }),
    [props.authFailures, notifier, toLogin],
  );
  const guarded = matched.screen.auth && !api.tokens.get();
  useEffect(() => {
    if (guarded) {
      notifier.notify(MESSAGES.tokenMissing, 'error');
      toLogin();
    }
  }, [guarded, notifier, toLogin]);

  // Below MENU_FOLDS_BELOW columns the side menu folds away and the screen takes the whole width; Tab or Ctrl+O
  // shows the menu in the screen's place (the screen stays mounted, hidden, so nothing typed there is lost).
  const folded = size.columns < MENU_FOLDS_BELOW;
  // What on the screen Esc clears before it goes back (a list's filter, a form or log opened within a screen): the
  // newest claim first; a claim given up leaves the older ones in place (a log's filter cleared, Esc closes the log).
  const escapeClaims = useRef<(() => void)[]>([]);
  const claimEscape = useCallback((clear: () => void) => {
    escapeClaims.current = [...escapeClaims.current, clear];
    return () => void (escapeClaims.current = escapeClaims.current.filter((c) => c !== clear));
  }, []);
  const nav: Nav = {
    path,
    screen: matched.screen,
    params: matched.params,
    query,
    go,
    back,
    reset,
    labels,
    setLabel,
    capture,
    setCapture,
    setHelp,
    markSubmitted,
    claimEscape,
    size: { columns: size.columns, rows: size.rows, menu: matched.screen.auth && !folded ? MENU_WIDTH : 0 },
    menuFocused: menuFocus,
    io: { ...io, copy },
    quit: exit,
  };

  // Ink re-subscribes key handlers in effects, which can run after a key already arrived: the handler reads the
  // latest render's values from a ref instead of its own closure.
  const latest = useRef({ capture, menuFocus, auth: matched.screen.auth, allKeys });
  latest.current = { capture, menuFocus, auth: matched.screen.auth, allKeys };
  useInput((input, key) => {
    const now = latest.current;
    if (key.ctrl && input === 'c') {
      props.onInterrupt?.();
      return exit();
    }
    if (now.capture === 'all') return;
    if (isMenuKey(input, key)) {
      if (now.auth) setMenuFocus((f) => !f);
      return;
    }
    if (key.escape) {
      if (now.allKeys) setAllKeys(false);
      else if (now.menuFocus) setMenuFocus(false);
      else if (escapeClaims.current.length) escapeClaims.current.at(-1)!();
      else back();
      return;
    }
    if (now.capture !== 'none') return;
    if (input === '?') setAllKeys((v) => !v);
    else if (input === 'q') exit();
    else if (key.tab && now.auth) setMenuFocus((f) => !f);
  });

  const Screen: ComponentType | undefined = useLoaded(
    () => loadedScreen(matched.screen.id),
    () => loadScreen(matched.screen.id),
    matched.screen.id,
  );
  const Menu = useLoaded(() => (matched.screen.auth ? menuModule : undefined), loadMenu, matched.screen.auth);
  return (
    <PortalProvider api={api} notifier={notifier} focus={props.focus}>
      <NavContext.Provider value={nav}>
        {/* No width from React state here: on a resize Ink lays the frame out again at the new width before React
            renders with the new size, and a width kept from before would draw a frame the terminal wraps. */}
        <Box flexDirection="column">
          <Header nav={nav} />
          <Notices notices={notices} />
          {copied ? (
            <Text color="green" wrap="truncate-end">
              Copied: {copied.what ? `${copied.what} (${copied.text.split('\n')[0]})` : copied.text}
            </Text>
          ) : null}
          <Box>
            {matched.screen.auth && !guarded && Menu && (!folded || menuFocus) ? (
              <Menu
                nav={nav}
                focused={menuFocus}
                onLogout={() => {
                  // Ends the session on the server, then forgets the token; a failure is shown, the sign-out stands.
                  void api.logout().then(({ ended, error }) => {
                    if (!ended) notifier.notify(`Signed out here, but the server could not end the session: ${error?.display}`, 'error');
                  });
                  reset('/');
                }}
                onContact={() => notifier.notify(`Contact Support: ${io.baseUrl}${CONTACT_PATH}`)}
              />
            ) : null}
            <Box
              flexDirection="column"
              flexGrow={1}
              flexShrink={1}
              paddingX={1}
              display={folded && menuFocus && matched.screen.auth ? 'none' : 'flex'}
            >
              {guarded ? null : Screen ? <Screen key={current} /> : <Text dimColor>Loading…</Text>}
            </Box>
          </Box>
          <KeyHelp
            parts={appHelp(
              helpParts(menuFocus ? '↑↓ move · Enter open' : (screenHelp ?? HELP[matched.screen.id])),
              matched.screen.auth,
              capture,
            )}
            width={size.columns}
            all={allKeys && capture === 'none'}
          />
        </Box>
      </NavContext.Provider>
    </PortalProvider>
  );
}

function Header({ nav }: { nav: Nav }) {
  const { screen, params, labels } = nav;
  const crumbs = breadcrumbs(screen.id, params, {
    client: params.clientId && labels[params.clientId],
    project: params.projectId && labels[params.projectId],
    run: params.runId && labels[params.runId],
    quote: params.quoteId && labels[params.quoteId],
    key: params.apikeyId && labels[params.apikeyId],
  } as Record<string, string | undefined>);
  return (
    <Box justifyContent="space-between">
      <Box flexShrink={1} flexGrow={1}>
        <Text wrap="truncate-middle">
          <Text bold color="cyan">
            Portal
          </Text>
          <Text> · {crumbs.length ? crumbs.map((c) => c.label).join(' › ') : screen.title}</Text>
        </Text>
      </Box>
      {screen.auth ? (
        <Box flexShrink={0}>
          <Text color="cyan"> [Contact Support]</Text>
        </Box>
      ) : null}
    </Box>
  );
}

/** The key help line, folded to `? more keys` when it does not fit; `?` shows every key on lines inside the width. */
function KeyHelp({ parts, width, all }: { parts: string[]; width: number; all: boolean }) {
  const { line, folded } = fitHelp(parts, width);
  if (!all || !folded)
    return (
      <Text dimColor wrap="truncate-end">
        {line}
      </Text>
    );
  return (
    <Box flexDirection="column">
      {packHelp([...parts, '? fewer keys'], width).map((l, i) => (
        <Text key={i} dimColor wrap="truncate-end">
          {l}
        </Text>
      ))}
    </Box>
  );
}

function Notices({ notices }: { notices: Notice[] }) {
  if (!notices.length) return null;
  return (
    <Box flexDirection="column">
      {notices.map((n) => (
        <Text key={n.id} wrap="truncate-end" color={n.kind === 'error' ? 'red' : n.kind === 'default' ? undefined : 'green'}>
          {n.kind === 'error' ? '✖' : '●'} {printable(n.message)}
        </Text>
      ))}
    </Box>
  );
}
