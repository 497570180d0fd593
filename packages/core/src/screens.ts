// The 18 screens of SPEC section 2 as data: drives web's router, tui's navigation, sidebars and breadcrumbs.

export type ScreenId =
  | 'login' | 'signup' | 'forgotPassword' | 'resetPassword'
  | 'account' | 'plan'
  | 'apikeys' | 'apikeyInfo' | 'integrations' | 'createIntegration' | 'projects'
  | 'models' | 'runs' | 'uploads' | 'createFitRun' | 'createShrinkRun' | 'runDetails' | 'quoteDetails';

/** SPEC writes the project parameter as {projectId} in some routes: this spelling reaches the same screen. */
export const PROJECT_ID_ALIAS = 'projectId';

export type ScreenParam = 'clientId' | 'apikeyId' | 'bucketId' | 'runId' | 'quoteId';
/** Route parameters; `projectId` is accepted as another spelling of `bucketId` (SPEC uses both). */
export type ScreenParams = Partial<Record<ScreenParam | typeof PROJECT_ID_ALIAS, string>>;

/** Which sidebar section a screen belongs to (SPEC: My Account; client; key, project, run or quote). */
export type SidebarSection = 'public' | 'account' | 'client' | 'key' | 'project' | 'run' | 'quote';

export interface ScreenDef {
  id: ScreenId;
  path: string;
  title: string;
  params: readonly ScreenParam[];
  /** Every route except the first four needs a stored sign-in token. */
  auth: boolean;
  section: SidebarSection;
  /** Breadcrumb parent. */
  parent: ScreenId | null;
}

const P = '/client/:clientId/project/:bucketId';

export const SCREENS: readonly ScreenDef[] = [
  { id: 'login', path: '/', title: 'Login', params: [], auth: false, section: 'public', parent: null },
  { id: 'signup', path: '/signup', title: 'Sign Up', params: [], auth: false, section: 'public', parent: null },
  { id: 'forgotPassword', path: '/forgot-password', title: 'Forgot Password', params: [], auth: false, section: 'public', parent: null },
  { id: 'resetPassword', path: '/reset-password', title: 'Reset Password', params: [], auth: false, section: 'public', parent: null },
  { id: 'account', path: '/account', title: 'My Account', params: [], auth: true, section: 'account', parent: null },
  { id: 'plan', path: '/plan', title: 'Compare Plans', params: [], auth: true, section: 'account', parent: 'account' },
  { id: 'apikeys', path: '/client/:clientId/apikeys', title: 'API Keys', params: ['clientId'], auth: true, section: 'client', parent: 'account' },
  { id: 'apikeyInfo', path: '/client/:clientId/apikey/:apikeyId/info', title: 'API Key Details', params: ['clientId', 'apikeyId'], auth: true, section: 'key', parent: 'apikeys' },
  { id: 'integrations', path: '/client/:clientId/integrations', title: 'Integrations', params: ['clientId'], auth: true, section: 'client', parent: 'account' },
  { id: 'createIntegration', path: '/client/:clientId/create-integration', title: 'Create Integration', params: ['clientId'], auth: true, section: 'client', parent: 'integrations' },
  { id: 'projects', path: '/client/:clientId/projects', title: 'Projects', params: ['clientId'], auth: true, section: 'client', parent: 'account' },
  { id: 'models', path: `${P}/models`, title: 'Models', params: ['clientId', 'bucketId'], auth: true, section: 'project', parent: 'projects' },
  { id: 'runs', path: `${P}/runs`, title: 'Requests', params: ['clientId', 'bucketId'], auth: true, section: 'project', parent: 'projects' },
  { id: 'uploads', path: `${P}/uploads`, title: 'Uploads', params: ['clientId', 'bucketId'], auth: true, section: 'project', parent: 'projects' },
  { id: 'createFitRun', path: `${P}/create-fit-run`, title: 'Create Request', params: ['clientId', 'bucketId'], auth: true, section: 'project', parent: 'runs' },
  { id: 'createShrinkRun', path: `${P}/create-shrink-run`, title: 'Create Shrink Request', params: ['clientId', 'bucketId'], auth: true, section: 'project', parent: 'runs' },
  { id: 'runDetails', path: `${P}/run/:runId/details`, title: 'Request Details', params: ['clientId', 'bucketId', 'runId'], auth: true, section: 'run', parent: 'runs' },
  { id: 'quoteDetails', path: `${P}/quote/:quoteId/details`, title: 'Quote Details', params: ['clientId', 'bucketId', 'quoteId'], auth: true, section: 'quote', parent: 'runs' },
];

export const SCREEN_BY_ID: Readonly<Record<ScreenId, ScreenDef>> = Object.fromEntries(SCREENS.map((s) => [s.id, s])) as Record<ScreenId, ScreenDef>;


/** The parameters with a `projectId` spelling read as `bucketId`. */
export function normalizeParams(params: ScreenParams): ScreenParams {
  const { [PROJECT_ID_ALIAS]: projectId, ...rest } = params;
  return projectId && !rest.bucketId ? { ...rest, bucketId: projectId } : rest;
}

/** Fill a screen's path with its parameters (encoded). */
export function screenPath(id: ScreenId, params: ScreenParams = {}): string {
  const def = SCREEN_BY_ID[id];
  return def.path.replace(/:([A-Za-z]+)/g, (_, name: ScreenParam) => {
    const v = params[name] ?? (name === 'bucketId' ? params[PROJECT_ID_ALIAS] : undefined);
    if (!v) throw new Error(`Missing route parameter ${name} for ${id}`);
    return encodeURIComponent(v);
  });
}

/** Find the screen of a path and its parameters, or null. Accepts both {bucketId} and {projectId} spellings. */
export function matchScreen(pathname: string): { screen: ScreenDef; params: ScreenParams } | null {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const screen of SCREENS) {
    const names: string[] = [];
    const re = new RegExp(
      '^' + screen.path.replace(/:([A-Za-z]+)/g, (_, n: string) => (names.push(n), '([^/]+)')) + '$',
    );
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
}

/** Names for the breadcrumb labels, as far as they are known. */
export interface CrumbNames {
  client?: string;
  project?: string;
  run?: string;
  quote?: string;
  key?: string;
}

/** Breadcrumbs run account > client > project > run or quote (SPEC section 2). */
export function breadcrumbs(id: ScreenId, params: ScreenParams, names: CrumbNames = {}): Crumb[] {
  params = normalizeParams(params);
  const def = SCREEN_BY_ID[id];
  if (!def.auth) return [];
  const crumbs: Crumb[] = [{ screen: 'account', label: 'My Account', path: '/account' }];
  if (id === 'plan') crumbs.push({ screen: 'plan', label: def.title, path: '/plan' });
  if (params.clientId) {
    crumbs.push({ screen: 'projects', label: names.client ?? 'Client', path: screenPath('projects', params) });
    if (id === 'apikeys' || id === 'apikeyInfo') crumbs.push({ screen: 'apikeys', label: 'API Keys', path: screenPath('apikeys', params) });
    if (id === 'apikeyInfo') crumbs.push({ screen: 'apikeyInfo', label: names.key ?? 'Key', path: screenPath('apikeyInfo', params) });
    if (id === 'integrations' || id === 'createIntegration') crumbs.push({ screen: 'integrations', label: 'Integrations', path: screenPath('integrations', params) });
  }
  if (params.bucketId) {
    crumbs.push({ screen: 'runs', label: names.project ?? 'Project', path: screenPath('runs', params) });
    if (id === 'runDetails') crumbs.push({ screen: 'runDetails', label: names.run ?? 'Request', path: screenPath('runDetails', params) });
    else if (id === 'quoteDetails') crumbs.push({ screen: 'quoteDetails', label: names.quote ?? 'Quote', path: screenPath('quoteDetails', params) });
    else if (id !== 'runs') crumbs.push({ screen: id, label: def.title, path: screenPath(id, params) });
  }
  if (id === 'createIntegration') crumbs.push({ screen: id, label: def.title, path: screenPath(id, params) });
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
}

/**
 * The sidebar for where the user is: My Account; the client (Projects only for Cloud or CloudPremise);
 * the current key, project, run or quote with Details. Logout is added by each renderer.
 */
export function sidebar(params: ScreenParams, ctx: { clientName?: string; choice?: string; projectName?: string; keyName?: string; runName?: string; quoteName?: string }): SidebarGroup[] {
  params = normalizeParams(params);
  const groups: SidebarGroup[] = [
    { section: 'account', title: 'My Account', links: [
      { screen: 'account', label: 'Accounts', path: '/account' },
      { screen: 'plan', label: 'Compare Plans', path: '/plan' },
    ] },
  ];
  if (params.clientId) {
    const links: SidebarLink[] = [];
    if (ctx.choice === 'Cloud' || ctx.choice === 'CloudPremise') links.push({ screen: 'projects', label: 'Projects', path: screenPath('projects', params) });
    links.push({ screen: 'apikeys', label: 'API Keys', path: screenPath('apikeys', params) });
    links.push({ screen: 'integrations', label: 'Integrations', path: screenPath('integrations', params) });
    groups.push({ section: 'client', title: ctx.clientName ?? 'Client', links });
  }
  if (params.clientId && params.apikeyId) {
    groups.push({ section: 'key', title: ctx.keyName ?? 'API Key', links: [{ screen: 'apikeyInfo', label: 'Details', path: screenPath('apikeyInfo', params) }] });
  }
  if (params.clientId && params.bucketId) {
    groups.push({ section: 'project', title: ctx.projectName ?? 'Project', links: [
      { screen: 'runs', label: 'Requests', path: screenPath('runs', params) },
      { screen: 'uploads', label: 'Uploads', path: screenPath('uploads', params) },
      { screen: 'models', label: 'Models', path: screenPath('models', params) },
    ] });
  }
  if (params.runId) groups.push({ section: 'run', title: ctx.runName ?? 'Request', links: [{ screen: 'runDetails', label: 'Details', path: screenPath('runDetails', params) }] });
  if (params.quoteId) groups.push({ section: 'quote', title: ctx.quoteName ?? 'Quote', links: [{ screen: 'quoteDetails', label: 'Details', path: screenPath('quoteDetails', params) }] });
  return groups;
}

/** Open on the account page: apikeys when the client's choice is Premise, else projects. */
export function accountOpenTarget(client: { stamp: string; choice: string }): string {
  return screenPath(client.choice === 'Premise' ? 'apikeys' : 'projects', { clientId: client.stamp });
}

/** Open on a project: runs if it has uploads, else create-shrink-run. */
export function projectOpenTarget(clientId: string, bucket: { stamp: string; rends: number }): string {
  return screenPath(bucket.rends > 0 ? 'runs' : 'createShrinkRun', { clientId, bucketId: bucket.stamp });
}
