// `portal accounts list`: list your accounts: name, id, plan, choice, active.
import type { Client } from '@portal/core';
import { onOff } from '../common';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'list',
  summary: 'List your accounts: name, id, plan, choice, active',
  examples: ['portal accounts list', 'portal accounts list --json'],
};

export type ListOptions = Record<string, never>;

export async function run(_opts: ListOptions, s: Session): Promise<void> {
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
}
