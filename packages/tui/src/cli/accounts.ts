// `portal accounts list`: the user's client accounts (from the permission list).
import type { Command } from 'commander';
import type { Client } from '@portal/core';
import type { Deps } from './context';
import { act, examples, onOff } from './common';

export function register(program: Command, deps: Deps): void {
  const accounts = program.command('accounts').description('Your client accounts').addHelpText('after', examples('portal accounts list'));

  accounts
    .command('list')
    .description('List your accounts: name, id, plan, choice, active')
    .addHelpText('after', examples('portal accounts list', 'portal accounts list --json'))
    .action(
      act(deps, async (s) => {
        const api = await s.api();
        const perms = await api.calls.permissions();
        const current = (await s.host()).get('client');
        // The accounts themselves, as every other list prints its objects (the permission entries only wrap them).
        s.out.list<Client>(
          perms.map((p) => p.client),
          [
            { header: 'Name', get: (c) => c.name },
            { header: 'ID', get: (c) => c.stamp },
            { header: 'Plan', get: (c) => c.plan },
            { header: 'Choice', get: (c) => c.choice },
            { header: 'Active', get: (c) => onOff(c.active) },
            { header: 'Default', get: (c) => (c.stamp === current || perms.length === 1 ? 'yes' : '') },
          ],
          'No client accounts yet.',
        );
      }),
    );
}
