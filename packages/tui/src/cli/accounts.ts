// `portal accounts list`: the user's client accounts (from the permission list).
import type { Command } from 'commander';
import type { PermissionEntry } from '@portal/core';
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
        const current = (await s.store()).get('client');
        s.out.list<PermissionEntry>(
          perms,
          [
            { header: 'Name', get: (p) => p.client.name },
            { header: 'ID', get: (p) => p.client.stamp },
            { header: 'Plan', get: (p) => p.client.plan },
            { header: 'Choice', get: (p) => p.client.choice },
            { header: 'Active', get: (p) => onOff(p.client.active) },
            { header: 'Default', get: (p) => (p.client.stamp === current || perms.length === 1 ? 'yes' : '') },
          ],
          'No client accounts yet.',
        );
      }),
    );
}
