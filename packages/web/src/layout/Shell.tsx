// The signed-in chrome: top bar (menu, upgrade, Contact Support), sidebar, breadcrumbs, and the page.
import { Suspense, useMemo, useState, type ReactNode } from 'react';
import { Link as RouterLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import {
  AppBar,
  Box,
  Breadcrumbs,
  Button,
  Divider,
  Drawer,
  IconButton,
  Link,
  List,
  ListItemButton,
  ListItemText,
  ListSubheader,
  Skeleton,
  SvgIcon,
  Toolbar,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { breadcrumbs, CONTACT_PATH, matchScreen, PALETTE, sidebar } from '@portal/core';
import { useAuth } from '@portal/core/react';
import { ChromeProvider, useChrome } from './ChromeContext';
import { markSignedOut } from '../lib/session';
import { ErrorBoundary } from './ErrorBoundary';
import { PAGE_LINK, PAGE_TEXT } from '../theme';
import { ColorSchemeToggle } from './ColorSchemeToggle';
import { Shortcuts } from './Shortcuts';
import { Loading } from '../components/Loading';

const DRAWER_WIDTH = 248;

function MenuIcon() {
  return (
    <SvgIcon aria-hidden="true">
      <path d="M3 18h18v-2H3v2zm0-5h18v-2H3v2zm0-7v2h18V6H3z" />
    </SvgIcon>
  );
}

function useWhere() {
  const { pathname } = useLocation();
  const m = matchScreen(pathname);
  return { screen: m?.screen, params: m?.params ?? {} };
}

function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const { screen, params } = useWhere();
  const { clients, names } = useChrome();
  const navigate = useNavigate();
  const auth = useAuth();
  const client = params.clientId ? clients?.find((c) => c.stamp === params.clientId) : undefined;
  const groups = sidebar(params, {
    clientName: client?.name ?? names.client,
    choice: client?.choice,
    projectName: names.project,
    keyName: names.key,
    runName: names.run,
    quoteName: names.quote,
  });
  const logout = () => {
    // Ends the session on the server, then forgets the token; a failure is shown, the sign-out stands. Marked first, so
    // a call still in flight or a page reached with Back goes to the root quietly.
    markSignedOut();
    void auth.logout();
    onNavigate?.();
    navigate('/', { replace: true });
  };
  return (
    <Box component="nav" aria-label="Main">
      <Toolbar />
      {groups.map((g) => (
        <List
          key={g.section}
          component="div"
          dense
          subheader={
            <ListSubheader
              component="div"
              sx={{
                bgcolor: 'transparent',
                color: PALETTE.accentSoft,
                fontWeight: 600,
                lineHeight: 1.4,
                pt: 2,
                pb: 0.5,
                overflowWrap: 'anywhere',
              }}
            >
              {g.pending ? <Skeleton variant="text" width={140} aria-hidden="true" /> : g.title}
            </ListSubheader>
          }
        >
          {g.links.map((l) => (
            <ListItemButton
              key={l.path}
              component={RouterLink}
              to={l.path}
              selected={screen?.id === l.screen}
              aria-current={screen?.id === l.screen ? 'page' : undefined}
              onClick={onNavigate}
            >
              <ListItemText primary={l.label} />
            </ListItemButton>
          ))}
        </List>
      ))}
      <Divider />
      <List component="div" dense>
        <ListItemButton onClick={logout}>
          <ListItemText primary="Logout" />
        </ListItemButton>
      </List>
    </Box>
  );
}

function Crumbs() {
  const { screen, params } = useWhere();
  const { clients, names } = useChrome();
  if (!screen) return null;
  const client = params.clientId ? clients?.find((c) => c.stamp === params.clientId) : undefined;
  const crumbs = breadcrumbs(screen.id, params, { ...names, client: client?.name ?? names.client });
  if (crumbs.length === 0) return null;
  return (
    <Breadcrumbs aria-label="Breadcrumbs" sx={{ mb: 2, color: PAGE_TEXT, '& .MuiBreadcrumbs-separator': { color: PAGE_TEXT } }}>
      {crumbs.map((c, i) =>
        c.pending ? (
          <Skeleton key={c.path + i} variant="text" width={96} aria-hidden="true" />
        ) : i === crumbs.length - 1 ? (
          <Typography key={c.path + i} sx={{ color: PAGE_TEXT, fontWeight: 600 }} aria-current="page">
            {c.label}
          </Typography>
        ) : (
          <Link key={c.path + i} component={RouterLink} to={c.path} sx={{ color: PAGE_LINK }} underline="hover">
            {c.label}
          </Link>
        ),
      )}
    </Breadcrumbs>
  );
}

function TopBar({ onMenu, showMenu, onSearch }: { onMenu: () => void; showMenu: boolean; onSearch: () => void }) {
  const { params } = useWhere();
  const { clients } = useChrome();
  // The upgrade button belongs to the Individual plan: the current client's, else the user's first client's.
  const client = (params.clientId ? clients?.find((c) => c.stamp === params.clientId) : undefined) ?? clients?.[0];
  return (
    <AppBar position="fixed" sx={{ zIndex: (t) => t.zIndex.drawer + 1, bgcolor: PALETTE.chrome }} elevation={1}>
      <Toolbar sx={{ gap: 1 }}>
        {showMenu && (
          <IconButton edge="start" color="inherit" aria-label="Open navigation" onClick={onMenu}>
            <MenuIcon />
          </IconButton>
        )}
        <Typography
          component={RouterLink}
          to="/account"
          variant="h6"
          sx={{ color: 'primary.main', textDecoration: 'none', fontWeight: 700, flexGrow: 1 }}
        >
          Portal
        </Typography>
        <Button
          color="inherit"
          size="small"
          onClick={onSearch}
          aria-label="Search"
          aria-keyshortcuts="Control+K Meta+K"
          sx={{ minWidth: 40 }}
          startIcon={
            <SvgIcon aria-hidden="true">
              <path d="M15.5 14h-.79l-.28-.27A6.47 6.47 0 0 0 16 9.5 6.5 6.5 0 1 0 9.5 16c1.61 0 3.09-.59 4.23-1.57l.27.28v.79l5 4.99L20.49 19l-4.99-5zm-6 0C7.01 14 5 11.99 5 9.5S7.01 5 9.5 5 14 7.01 14 9.5 11.99 14 9.5 14z" />
            </SvgIcon>
          }
        >
          <Box component="span" sx={{ display: { xs: 'none', md: 'inline' } }}>
            Search
            <Box component="kbd" sx={{ ml: 1, fontSize: '0.75rem', color: 'text.secondary' }}>
              Ctrl K
            </Box>
          </Box>
        </Button>
        {client?.plan === 'Individual' && (
          <Button variant="contained" size="small" href={CONTACT_PATH} target="_blank" rel="noopener">
            Upgrade
          </Button>
        )}
        <Button variant="outlined" size="small" href={CONTACT_PATH} target="_blank" rel="noopener">
          Contact Support
        </Button>
        <ColorSchemeToggle />
      </Toolbar>
    </AppBar>
  );
}

function Frame({ children }: { children?: ReactNode }) {
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [open, setOpen] = useState(false);
  const [searching, setSearching] = useState(false);
  const { pathname } = useLocation();
  const where = useWhere().params;
  const { clientId, projectId } = where;
  const params = useMemo(() => ({ clientId, projectId }), [clientId, projectId]);
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box
        component="a"
        href="#main"
        sx={{
          position: 'fixed',
          left: 8,
          top: -48,
          zIndex: (t) => t.zIndex.tooltip + 1,
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
          px: 2,
          py: 1,
          borderRadius: 1,
          fontWeight: 600,
          '&:focus': { top: 8 },
        }}
      >
        Skip to content
      </Box>
      <TopBar showMenu={!desktop} onMenu={() => setOpen(true)} onSearch={() => setSearching(true)} />
      <Shortcuts params={params} searching={searching} setSearching={setSearching} />
      {desktop ? (
        <Drawer
          variant="permanent"
          sx={{
            width: DRAWER_WIDTH,
            flexShrink: 0,
            '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box', bgcolor: PALETTE.chrome },
          }}
        >
          <SidebarNav />
        </Drawer>
      ) : (
        <Drawer
          variant="temporary"
          open={open}
          onClose={() => setOpen(false)}
          ModalProps={{ keepMounted: false }}
          sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH, bgcolor: PALETTE.chrome } }}
        >
          <SidebarNav onNavigate={() => setOpen(false)} />
        </Drawer>
      )}
      <Box component="main" id="main" tabIndex={-1} sx={{ flexGrow: 1, minWidth: 0, p: { xs: 1.5, sm: 3 }, outline: 'none' }}>
        <Toolbar />
        <Crumbs />
        <ErrorBoundary resetKey={pathname}>
          <Suspense fallback={<Loading />}>{children ?? <Outlet />}</Suspense>
        </ErrorBoundary>
      </Box>
    </Box>
  );
}

export default function Shell() {
  return (
    <ChromeProvider>
      <Frame />
    </ChromeProvider>
  );
}
