// The "Get started" path a new account follows to its first result: its steps, which are done (from the account's
// own data), where each is done in every door, and whether the user has put the path away.
import type { Project, Choice, Model } from '../contract';
import { screenPath, type ScreenId, type ScreenParams } from '../screens';

/** The page's heading in every door. */
export const GET_STARTED_TITLE = 'Get started';

export type StartStepId = 'project' | 'upload' | 'model' | 'apikey';

export interface StartStep {
  id: StartStepId;
  /** What to do, as a short imperative ("Create a project"). */
  label: string;
  /** One sentence on why and how. */
  hint: string;
  /** Whether the account's data shows the step done. */
  done: boolean;
  /** The screen where the step is done, and its path. */
  screen: ScreenId;
  path: string;
  /** The `portal` command that does the same (for the CLI's "next step" line). */
  command: string;
}

/** What the steps are read from: the client's projects (with their counts), keys and finished models. */
export interface StartFacts {
  clientId: string;
  choice: Choice | string;
  projects: readonly Pick<Project, 'stamp' | 'name' | 'rends' | 'runs'>[];
  /** Active API keys of the client. */
  keys: number;
  /** Whether any project holds a model whose training finished. */
  trained: boolean;
}

/** A client whose choice has no projects (Premise) only needs its API key. */
const usesProjects = (choice: string) => choice === 'Cloud' || choice === 'CloudPremise';

/** A model is trained once its fit finished. */
export const isTrained = (model: Pick<Model, 'state'>): boolean => model.state === 'Finished';

/** The screen a step is done on, with the project it opens. */
interface Where {
  screen: ScreenId;
  params?: ScreenParams;
}

/** What each step asks, the same in every door: a short imperative and one sentence on why and how. */
const STEP_TEXTS: Record<StartStepId, Pick<StartStep, 'label' | 'hint'>> = {
  project: { label: 'Create a project', hint: 'A project holds your uploads, requests and models.' },
  upload: { label: 'Upload data', hint: 'A table as JSON or CSV: one row per example, numbers or named columns.' },
  model: { label: 'Train a model', hint: 'A fit request learns an embedding of your data; the model is ready when it finishes.' },
  apikey: { label: 'Create an API key', hint: 'The key lets your own code and the Python client call the service.' },
};

/**
 * The steps for a client, in order, each ticked from the facts and linking to its screen: the upload step goes to the
 * first project's uploads, the model step to the fit form of the first project with data.
 */
export function startSteps(facts: StartFacts): StartStep[] {
  const { clientId, projects } = facts;
  const step = (id: StartStepId, done: boolean, where: Where, command: string): StartStep => ({
    id,
    ...STEP_TEXTS[id],
    done,
    screen: where.screen,
    path: screenPath(where.screen, { clientId, ...where.params }),
    command,
  });
  const first = projects[0];
  const withData = projects.find((p) => p.rends > 0);
  const apikey = step('apikey', facts.keys > 0, { screen: 'apikeys' }, 'portal keys create --name NAME');
  if (!usesProjects(facts.choice)) return [apikey];
  const uploadsOf: Where = first ? { screen: 'uploads', params: { projectId: first.stamp } } : { screen: 'projects' };
  const fitIn: Where = withData ? { screen: 'createFitRun', params: { projectId: withData.stamp } } : uploadsOf;
  const fit = `portal fit --upload UPLOAD --inputs N --outputs M --target T${withData ? ` --project ${withData.stamp}` : ''}`;
  return [
    step('project', projects.length > 0, { screen: 'projects' }, 'portal projects create --name NAME'),
    step('upload', !!withData, uploadsOf, `portal uploads push FILE --project ${first?.stamp ?? 'PROJECT'}`),
    step('model', facts.trained, fitIn, fit),
    apikey,
  ];
}

/** The first step not done, or null when every step is. */
export function nextStartStep(steps: readonly StartStep[]): StartStep | null {
  return steps.find((s) => !s.done) ?? null;
}

/** "2 of 4 done". */
export function startProgress(steps: readonly StartStep[]): string {
  return `${steps.filter((s) => s.done).length} of ${steps.length} done`;
}

/**
 * Where a door keeps that a user put the path away: the web's local storage, the terminal's config file. One key per
 * user and client (`startDismissKey`), so another person on the same browser or machine still sees their own path.
 */
export interface StartDismissStore {
  get(key: string): boolean;
  set(key: string, dismissed: boolean): void;
}

export const startDismissKey = (userId: string, clientId: string): string => `getStarted.dismissed.${userId}.${clientId}`;

/** A store in memory (tests, or a door with nowhere to keep it). */
export function memoryStartDismissStore(): StartDismissStore {
  const keys = new Set<string>();
  return { get: (k) => keys.has(k), set: (k, d) => void (d ? keys.add(k) : keys.delete(k)) };
}

/**
 * Whether a door opens on the path for this user: while it is neither dismissed nor complete. The web lands a new
 * sign-up there; the terminal UI shows it on its first screen; the CLI prints the next step after `portal login`.
 */
export function showsGetStarted(steps: readonly StartStep[], dismissed: boolean): boolean {
  return !dismissed && nextStartStep(steps) !== null;
}
