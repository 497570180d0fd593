// The program's table of modules (each loaded only when the command line names one of its commands) against what
// the modules register, and the choice of modules for a command line.
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { commandWord, moduleCommands, modulesFor } from './program';
import type { Deps } from './context';

const names = (list: ReturnType<typeof modulesFor>) => list.map(([name]) => name);

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
    expect(names(modulesFor(['projects', 'list', '--json']))).toEqual(['projects']);
    expect(names(modulesFor(['login']))).toEqual(['auth']);
    expect(names(modulesFor(['generate', '--help']))).toEqual(['fit']);
    expect(modulesFor(['--version'])).toEqual([]);
    const all = names(modulesFor([]));
    expect(all.length).toBeGreaterThan(15);
    expect(names(modulesFor(['help', 'uploads', 'push']))).toEqual(all);
    expect(names(modulesFor(['completion', 'bash']))).toEqual(all);
    expect(names(modulesFor(['projets']))).toEqual(all);
  });
});
