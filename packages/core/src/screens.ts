// The 18 screens of SPEC section 2, the team screens (members, audit log, invitation), usage, webhooks and the email
// confirmation link's page as data: drives web's router, tui's navigation, sidebars and breadcrumbs.
import { EMAIL_CONFIRM_PATH } from './rules/account';

export type ScreenId =
  | 'login'
  | 'signup'
  | 'forgotPassword'
  | 'resetPassword'
  | 'account'
  | 'getStarted'
  | 'plan'
  | 'apikeys'
  | 'apikeyInfo'
  | 'integrations'
  | 'createIntegration'
  | 'projects'
  | 'models'
  | 'runs'
  | 'uploads'
  | 'createFitRun'
  | 'createShrinkRun'
  | 'runDetails'
  | 'quoteDetails'
  | 'members'
  | 'audit'
  | 'invite'
  | 'emailConfirm'
  | 'usage'
  | 'webhooks';

/**
 * A route's parameters, in product words. SPEC writes the project's as {bucketId} in some routes and {projectId} in
 * others: the URL is the same either way, and the code names it `projectId`.
 */
export type ScreenParam = 'clientId' | 'apikeyId' | 'projectId' | 'runId' | 'quoteId';
export type ScreenParams = Partial<Record<ScreenParam, string>>;

/** Which sidebar section a screen belongs to (SPEC: My Account; client; key, project, run or quote). */
export type SidebarSection = 'public' | 'account' | 'client' | 'key' | 'project' | 'run' | 'quote';

/** Names for the breadcrumb labels and sidebar titles, as far as they are known. */
export interface CrumbNames {
  client?: string;
  project?: string;
  run?: string;
  quote?: string;
  key?: string;
}

/** What the sidebar knows of where the user is. */
export interface SidebarContext {
  clientName?: string;
  choice?: string;
  projectName?: string;
  keyName?: string;
  runName?: string;
  quoteName?: string;
}

/**
 * The `portal` command noun that does what a screen does (`portal projects list`, `portal fit ...`): the CLI
 * registers one module per noun from this list, so a screen without its command does not compile.
 */
export type CliNoun =
  | 'auth'
  | 'accounts'
  | 'plan'
  | 'keys'
  | 'integrations'
  | 'projects'
  | 'models'
  | 'runs'
  | 'uploads'
  | 'fit'
  | 'shrink'
  | 'quotes'
  | 'members'
  | 'invites'
  | 'audit'
  | 'usage'
  | 'webhooks';

export interface ScreenDef {
  id: ScreenId;
  path: string;
  title: string;
  params: readonly ScreenParam[];
  /** Every route except the first four needs a stored sign-in token. */
  auth: boolean;
  /** The sidebar group the screen's link sits in ('public': no sidebar). */
  section: SidebarSection;
  /** Breadcrumb parent: the trail is this screen's chain of parents up to My Account. */
  parent: ScreenId | null;
  /** Its breadcrumb: `label`, or the name of the entity it shows when known. */
  crumb: { label: string; name?: keyof CrumbNames };
  /** Its link in the sidebar, or null when it has none; `when` hides it for some clients. */
  nav: { label: string; when?: (ctx: SidebarContext) => boolean } | null;
  /** The CLI command noun for the same work. */
  cli: CliNoun;
}

const P = '/client/:clientId/project/:projectId';
const hasProjects = (ctx: SidebarContext) => ctx.choice === 'Cloud' || ctx.choice === 'CloudPremise';

// Within a section, the table's order is the sidebar's order.
const TABLE = [
  {
    id: 'login',
    path: '/',
    title: 'Login',
    params: [],
    auth: false,
    section: 'public',
    parent: null,
    crumb: { label: 'Login' },
    nav: null,
    cli: 'auth',
  },
  {
    id: 'signup',
    path: '/signup',
    title: 'Sign Up',
    params: [],
    auth: false,
    section: 'public',
    parent: null,
    crumb: { label: 'Sign Up' },
    nav: null,
    cli: 'auth',
  },
  {
    id: 'forgotPassword',
    path: '/forgot-password',
    title: 'Forgot Password',
    params: [],
    auth: false,
    section: 'public',
    parent: null,
    crumb: { label: 'Forgot Password' },
    nav: null,
    cli: 'auth',
  },
  {
    id: 'resetPassword',
    path: '/reset-password',
    title: 'Reset Password',
    params: [],
    auth: false,
    section: 'public',
    parent: null,
    crumb: { label: 'Reset Password' },
    nav: null,
    cli: 'auth',
  },
  {
    id: 'account',
    path: '/account',
    title: 'My Account',
    params: [],
    auth: true,
    section: 'account',
    parent: null,
    crumb: { label: 'My Account' },
    nav: { label: 'Accounts' },
    cli: 'accounts',
  },
  {
    // A new account's path to its first result (rules/getStarted.ts); sign-up lands here.
    id: 'getStarted',
    path: '/get-started',
    title: 'Get started',
    params: [],
    auth: true,
    section: 'account',
    parent: 'account',
    crumb: { label: 'Get started' },
    nav: { label: 'Get started' },
    cli: 'accounts',
  },
  {
    id: 'plan',
    path: '/plan',
    title: 'Compare Plans',
    params: [],
    auth: true,
    section: 'account',
    parent: 'account',
    crumb: { label: 'Compare Plans' },
    nav: { label: 'Compare Plans' },
    cli: 'plan',
  },
  {
    id: 'projects',
    path: '/client/:clientId/projects',
    title: 'Projects',
    params: ['clientId'],
    auth: true,
    section: 'client',
    parent: 'account',
    crumb: { label: 'Client', name: 'client' },
    nav: { label: 'Projects', when: hasProjects },
    cli: 'projects',
  },
  {
    id: 'apikeys',
    path: '/client/:clientId/apikeys',
    title: 'API Keys',
    params: ['clientId'],
    auth: true,
    section: 'client',
    parent: 'projects',
    crumb: { label: 'API Keys' },
    nav: { label: 'API Keys' },
    cli: 'keys',
  },
  {
    id: 'apikeyInfo',
    path: '/client/:clientId/apikey/:apikeyId/info',
    title: 'API Key Details',
    params: ['clientId', 'apikeyId'],
    auth: true,
    section: 'key',
    parent: 'apikeys',
    crumb: { label: 'Key', name: 'key' },
    nav: { label: 'Details' },
    cli: 'keys',
  },
  {
    id: 'integrations',
    path: '/client/:clientId/integrations',
    title: 'Integrations',
    params: ['clientId'],
    auth: true,
    section: 'client',
    parent: 'projects',
    crumb: { label: 'Integrations' },
    nav: { label: 'Integrations' },
    cli: 'integrations',
  },
  {
    id: 'createIntegration',
    path: '/client/:clientId/create-integration',
    title: 'Create Integration',
    params: ['clientId'],
    auth: true,
    section: 'client',
    parent: 'integrations',
    crumb: { label: 'Create Integration' },
    nav: null,
    cli: 'integrations',
  },
  {
    id: 'members',
    path: '/client/:clientId/members',
    title: 'Members',
    params: ['clientId'],
    auth: true,
    section: 'client',
    parent: 'projects',
    crumb: { label: 'Members' },
    nav: { label: 'Members' },
    cli: 'members',
  },
  {
    id: 'audit',
    path: '/client/:clientId/audit',
    title: 'Audit Log',
    params: ['clientId'],
    auth: true,
    section: 'client',
    parent: 'projects',
    crumb: { label: 'Audit Log' },
    nav: { label: 'Audit Log' },
    cli: 'audit',
  },
  {
    // The client's webhook endpoints and, for the one picked, its delivery log (owners manage; others read the reason).
    id: 'webhooks',
    path: '/client/:clientId/webhooks',
    title: 'Webhooks',
    params: ['clientId'],
    auth: true,
    section: 'client',
    parent: 'projects',
    crumb: { label: 'Webhooks' },
    nav: { label: 'Webhooks' },
    cli: 'webhooks',
  },
  {
    // Open to everyone: someone not signed in signs in or up first and comes back here (`?next=`).
    id: 'invite',
    path: '/invite',
    title: 'Invitation',
    params: [],
    auth: false,
    section: 'public',
    parent: null,
    crumb: { label: 'Invitation' },
    nav: null,
    cli: 'invites',
  },
  {
    // The link mailed to a new email address opens here; no sign-in needed (the link's token proves the address).
    id: 'emailConfirm',
    path: EMAIL_CONFIRM_PATH,
    title: 'Confirm Email',
    params: [],
    auth: false,
    section: 'public',
    parent: null,
    crumb: { label: 'Confirm Email' },
    nav: null,
    cli: 'auth',
  },
  {
    id: 'runs',
    path: `${P}/runs`,
    title: 'Requests',
    params: ['clientId', 'projectId'],
    auth: true,
    section: 'project',
    parent: 'projects',
    crumb: { label: 'Project', name: 'project' },
    nav: { label: 'Requests' },
    cli: 'runs',
  },
  {
    id: 'uploads',
    path: `${P}/uploads`,
    title: 'Uploads',
    params: ['clientId', 'projectId'],
    auth: true,
    section: 'project',
    parent: 'runs',
    crumb: { label: 'Uploads' },
    nav: { label: 'Uploads' },
    cli: 'uploads',
  },
  {
    id: 'models',
    path: `${P}/models`,
    title: 'Models',
    params: ['clientId', 'projectId'],
    auth: true,
    section: 'project',
    parent: 'runs',
    crumb: { label: 'Models' },
    nav: { label: 'Models' },
    cli: 'models',
  },
  {
    id: 'createFitRun',
    path: `${P}/create-fit-run`,
    title: 'Create Request',
    params: ['clientId', 'projectId'],
    auth: true,
    section: 'project',
    parent: 'runs',
    crumb: { label: 'Create Request' },
    nav: null,
    cli: 'fit',
  },
  {
    id: 'createShrinkRun',
    path: `${P}/create-shrink-run`,
    title: 'Create Shrink Request',
    params: ['clientId', 'projectId'],
    auth: true,
    section: 'project',
    parent: 'runs',
    crumb: { label: 'Create Shrink Request' },
    nav: null,
    cli: 'shrink',
  },
  {
    id: 'runDetails',
    path: `${P}/run/:runId/details`,
    title: 'Request Details',
    params: ['clientId', 'projectId', 'runId'],
    auth: true,
    section: 'run',
    parent: 'runs',
    crumb: { label: 'Request', name: 'run' },
    nav: { label: 'Details' },
    cli: 'runs',
  },
  {
    id: 'quoteDetails',
    path: `${P}/quote/:quoteId/details`,
    title: 'Quote Details',
    params: ['clientId', 'projectId', 'quoteId'],
    auth: true,
    section: 'quote',
    parent: 'runs',
    crumb: { label: 'Quote', name: 'quote' },
    nav: { label: 'Details' },
    cli: 'quotes',
  },
  {
    id: 'usage',
    path: '/client/:clientId/usage',
    title: 'Usage',
    params: ['clientId'],
    auth: true,
    section: 'client',
    parent: 'projects',
    crumb: { label: 'Usage' },
    nav: { label: 'Usage' },
    cli: 'usage',
  },
] as const satisfies readonly ScreenDef[];

export const SCREENS: readonly ScreenDef[] = TABLE;

// Every id has exactly one row: a ScreenId missing from the table (or a row of an unknown id) does not compile.
type MissingScreen = Exclude<ScreenId, (typeof TABLE)[number]['id']>;
const everyScreen: [MissingScreen] extends [never] ? true : { missing: MissingScreen } = true;
void everyScreen;

export const SCREEN_BY_ID: Readonly<Record<ScreenId, ScreenDef>> = Object.fromEntries(SCREENS.map((s) => [s.id, s])) as Record<
  ScreenId,
  ScreenDef
>;

/** Fill a screen's path with its parameters (encoded). */
export function screenPath(id: ScreenId, params: ScreenParams = {}): string {
  const def = SCREEN_BY_ID[id];
  return def.path.replace(/:([A-Za-z]+)/g, (_, name: ScreenParam) => {
    const v = params[name];
    if (!v) throw new Error(`Missing route parameter ${name} for ${id}`);
    return encodeURIComponent(v);
  });
}

/** Find the screen of a path and its parameters, or null. */
export function matchScreen(pathname: string): { screen: ScreenDef; params: ScreenParams } | null {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const screen of SCREENS) {
    const names: string[] = [];
    const re = new RegExp('^' + screen.path.replace(/:([A-Za-z]+)/g, (_, n: string) => (names.push(n), '([^/]+)')) + '$');
    const m = re.exec(clean);
    if (m) {
      const params: ScreenParams = {};
      names.forEach((n, i) => (params[n as ScreenParam] = decodeURIComponent(m[i + 1])));
      return { screen, params };
    }
  }
  return null;
}

export interface Crumb {
  screen: ScreenId;
  label: string;
  path: string;
  /** The crumb names an entity whose name is not known yet: `label` is only a placeholder (a door may draw a skeleton). */
  pending?: boolean;
}

/** Breadcrumbs run account > client > project > run or quote (SPEC section 2): the screen's chain of parents. */
export function breadcrumbs(id: ScreenId, params: ScreenParams, names: CrumbNames = {}): Crumb[] {
  if (!SCREEN_BY_ID[id].auth) return [];
  const crumbs: Crumb[] = [];
  for (let def: ScreenDef | null = SCREEN_BY_ID[id]; def; def = def.parent ? SCREEN_BY_ID[def.parent] : null) {
    const name = def.crumb.name && names[def.crumb.name];
    const label = name || def.crumb.label;
    crumbs.unshift({ screen: def.id, label, path: screenPath(def.id, params), ...(def.crumb.name && !name ? { pending: true } : {}) });
  }
  return crumbs;
}

export interface SidebarLink {
  screen: ScreenId;
  label: string;
  path: string;
}
export interface SidebarGroup {
  section: SidebarSection;
  title: string;
  links: SidebarLink[];
  /** The title names an entity whose name is not known yet: `title` is only a placeholder. */
  pending?: boolean;
}

/** Each sidebar group: when it shows (the parameters it needs) and its title. */
const GROUPS: ReadonlyArray<{
  section: Exclude<SidebarSection, 'public'>;
  needs: readonly ScreenParam[];
  title: (ctx: SidebarContext) => string;
  /** The name the title shows, when the group names an entity. */
  name?: (ctx: SidebarContext) => string | undefined;
}> = [
  { section: 'account', needs: [], title: () => 'My Account' },
  { section: 'client', needs: ['clientId'], title: (ctx) => ctx.clientName ?? 'Client', name: (ctx) => ctx.clientName },
  { section: 'key', needs: ['clientId', 'apikeyId'], title: (ctx) => ctx.keyName ?? 'API Key', name: (ctx) => ctx.keyName },
  { section: 'project', needs: ['clientId', 'projectId'], title: (ctx) => ctx.projectName ?? 'Project', name: (ctx) => ctx.projectName },
  { section: 'run', needs: ['runId'], title: (ctx) => ctx.runName ?? 'Request', name: (ctx) => ctx.runName },
  { section: 'quote', needs: ['quoteId'], title: (ctx) => ctx.quoteName ?? 'Quote', name: (ctx) => ctx.quoteName },
];

/**
 * The sidebar for where the user is: My Account; the client (Projects only for Cloud or CloudPremise);
 * the current key, project, run or quote with Details. Logout is added by each renderer.
 */
export function sidebar(params: ScreenParams, ctx: SidebarContext): SidebarGroup[] {
  return GROUPS.filter((g) => g.needs.every((p) => params[p])).map((g) => ({
    section: g.section,
    title: g.title(ctx),
    ...(g.name && !g.name(ctx) ? { pending: true } : {}),
    links: SCREENS.flatMap((s) =>
      s.section === g.section && s.nav && (!s.nav.when || s.nav.when(ctx))
        ? [{ screen: s.id, label: s.nav.label, path: screenPath(s.id, params) }]
        : [],
    ),
  }));
}

/** Open on the account page: apikeys when the client's choice is Premise, else projects. */
export function accountOpenTarget(client: { stamp: string; choice: string }): string {
  return screenPath(client.choice === 'Premise' ? 'apikeys' : 'projects', { clientId: client.stamp });
}

/** Open on a project: runs if it has uploads, else create-shrink-run. */
export function projectOpenTarget(clientId: string, project: { stamp: string; rends: number }): string {
  return screenPath(project.rends > 0 ? 'runs' : 'createShrinkRun', { clientId, projectId: project.stamp });
}

/** Longer than any portal URL a browser shows: refused rather than matched. */
const TARGET_MAX = 2048;

/**
 * The portal path a person means by what they paste: a path (`/client/ID/project/ID/runs`) or the whole URL copied
 * from the browser (any origin: the web portal may be served apart from the API). Returns the path with its query
 * (`/invite?token=...`), or null when it names no screen of the table.
 */
export function screenTarget(input: string): string | null {
  const text = input.trim();
  if (!text || text.length > TARGET_MAX) return null;
  let path = text;
  let search = '';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      path = url.pathname;
      search = url.search;
    } catch {
      return null;
    }
  } else {
    const cut = text.search(/[?#]/);
    if (cut >= 0) {
      search = text[cut] === '?' ? text.slice(cut).split('#')[0] : '';
      path = text.slice(0, cut);
    }
    if (!path.startsWith('/')) path = `/${path}`;
  }
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  let found: ReturnType<typeof matchScreen>;
  try {
    found = matchScreen(clean);
  } catch {
    // A malformed %-escape in an id.
    return null;
  }
  return found ? `${clean}${search === '?' ? '' : search}` : null;
}
