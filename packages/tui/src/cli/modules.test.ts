// The program's table of modules (each loaded only when the command line names one of its commands) against what
// the modules register, and the choice of modules for a command line.
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { moduleCommands, modulesFor } from './program';
import { MODULE_WORDS, OWN_BUILD, buildFor, commandWord, wordsOf } from './words';
import type { Deps } from './context';

const names = modulesFor;

describe('portal: modules loaded on demand', () => {
  it('each module registers exactly the commands the table lists for it', async () => {
    for (const [, commands, load] of moduleCommands()) {
      const program = new Command('portal');
      (await load()).register(program, {} as Deps);
      expect(program.commands.map((c) => c.name())).toEqual(commands);
    }
  });

  it('finds the command word past the global flags and their values', () => {
    expect(commandWord(['--api', 'http://x', '--json', 'projects', 'list'])).toBe('projects');
    expect(commandWord(['--client=c1', 'uploads', 'push', 'a.json'])).toBe('uploads');
    expect(commandWord(['--jq', '.[]', '--timeout', '5'])).toBeUndefined();
  });

  it('loads one module for a command, none for --version, all for help and completion', () => {
    expect(names(['projects', 'list', '--json'])).toEqual(['projects']);
    expect(names(['login'])).toEqual(['auth']);
    expect(names(['generate', '--help'])).toEqual(['fit']);
    expect(modulesFor(['--version'])).toEqual([]);
    const all = names([]);
    expect(all).toEqual(MODULE_WORDS.map(([name]) => name));
    expect(all.length).toBeGreaterThan(15);
    expect(names(['help', 'uploads', 'push'])).toEqual(all);
    expect(names(['completion', 'bash'])).toEqual(all);
    expect(names(['projets'])).toEqual(all);
  });

  it("runs a command line in its module's own build, and everything else in the full one", () => {
    // Every module but the UI and completion has a build of its own, and each of its command words leads there.
    expect(OWN_BUILD).toEqual(MODULE_WORDS.map(([name]) => name).filter((n) => n !== 'ui' && n !== 'completion'));
    for (const name of OWN_BUILD) for (const word of wordsOf(name)) expect(buildFor(['--json', word, 'x'])).toBe(name);
    expect(buildFor(['--api', 'http://x', 'uploads', 'push', 'a.csv'])).toBe('uploads');
    // The full build: the UI, help, completion, --version, no word, an unknown word.
    for (const argv of [
      [],
      ['ui'],
      ['ui', 'projects'],
      ['help', 'projects'],
      ['completion', 'bash'],
      ['__complete', 'pro'],
      ['--version'],
      ['--json'],
      ['projets'],
    ])
      expect(buildFor(argv), argv.join(' ')).toBeNull();
  });
});
