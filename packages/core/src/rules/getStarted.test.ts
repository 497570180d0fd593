import { describe, expect, it } from 'vitest';
import {
  memoryStartDismissStore,
  nextStartStep,
  showsGetStarted,
  startDismissKey,
  startProgress,
  startSteps,
  type StartFacts,
} from './getStarted';

const empty: StartFacts = { clientId: 'c1', choice: 'Cloud', projects: [], keys: 0, trained: false };
const project = (stamp: string, uploads = 0, runs = 0) => ({ stamp, name: stamp, rends: uploads, runs });

describe('get started', () => {
  it('a new account has four steps, none done, the first next', () => {
    const steps = startSteps(empty);
    expect(steps.map((s) => s.label)).toEqual(['Create a project', 'Upload data', 'Train a model', 'Create an API key']);
    expect(steps.every((s) => !s.done)).toBe(true);
    expect(nextStartStep(steps)?.id).toBe('project');
    expect(startProgress(steps)).toBe('0 of 4 done');
    expect(steps.map((s) => s.path)).toEqual(['/client/c1/projects', '/client/c1/projects', '/client/c1/projects', '/client/c1/apikeys']);
  });

  it('ticks each step from the data and links to where the next is done', () => {
    let steps = startSteps({ ...empty, projects: [project('p1')] });
    expect(steps.map((s) => s.done)).toEqual([true, false, false, false]);
    expect(nextStartStep(steps)?.path).toBe('/client/c1/project/p1/uploads');
    expect(nextStartStep(steps)?.command).toBe('portal uploads push FILE --project p1');
    steps = startSteps({ ...empty, projects: [project('p1'), project('p2', 1)] });
    expect(nextStartStep(steps)?.id).toBe('model');
    expect(nextStartStep(steps)?.path).toBe('/client/c1/project/p2/create-fit-run');
    steps = startSteps({ ...empty, projects: [project('p2', 1, 2)], trained: true });
    expect(nextStartStep(steps)?.id).toBe('apikey');
    steps = startSteps({ ...empty, projects: [project('p2', 1, 2)], trained: true, keys: 1 });
    expect(nextStartStep(steps)).toBeNull();
    expect(startProgress(steps)).toBe('4 of 4 done');
  });

  it('a client without projects (Premise) only needs its key', () => {
    expect(startSteps({ ...empty, choice: 'Premise' }).map((s) => s.id)).toEqual(['apikey']);
  });

  it('shows the path until it is done or dismissed, dismissal kept per user and client', () => {
    const steps = startSteps(empty);
    const store = memoryStartDismissStore();
    expect(showsGetStarted(steps, store.get(startDismissKey('u1', 'c1')))).toBe(true);
    store.set(startDismissKey('u1', 'c1'), true);
    expect(showsGetStarted(steps, store.get(startDismissKey('u1', 'c1')))).toBe(false);
    expect(store.get(startDismissKey('u2', 'c1'))).toBe(false);
    const done = startSteps({ ...empty, projects: [project('p', 1, 1)], trained: true, keys: 1 });
    expect(showsGetStarted(done, false)).toBe(false);
  });
});
