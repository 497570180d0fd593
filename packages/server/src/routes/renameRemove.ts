// Rename and remove of one noun, declared once: the caller's access, the change and its audit line in one
// transaction, the remove call's restore (active=1, the portal's Undo), and the rename's answer.
import type { AuditAction, CallResponse } from '@portal/core';
import { defineCall, type CallOptions, type CallServices, type ContractApp } from './define';
import type { Lookup } from '../access';
import { actorOf, audit } from '../audit';
import type { Caller, Services } from '../services';

/** A row that can be renamed and removed: its name and whether it is removed. */
interface Named {
  name: string;
  active: number;
}

/**
 * The nouns that are renamed and removed, by their product name (the audit log's `project.rename`, ...), with their
 * wire names: the calls, the id's field in both bodies, and the table and its id column.
 */
const NOUNS = {
  project: { rename: 'bucketRename', remove: 'bucketRemove', field: 'bucket', table: 'buckets', id: 'stamp', restorable: true },
  upload: { rename: 'rendRename', remove: 'rendRemove', field: 'rend', table: 'rends', id: 'stamp', restorable: true },
  request: { rename: 'runRename', remove: 'runRemove', field: 'run', table: 'runs', id: 'stamp', restorable: true },
  model: { rename: 'modelRename', remove: 'modelRemove', field: 'model', table: 'models', id: 'stamp', restorable: true },
  // Keys are not restorable: a removed key's token is revoked for good.
  apikey: { rename: 'apikeyRename', remove: 'apikeyRemove', field: 'apikey', table: 'apikeys', id: 'clue', restorable: false },
  integration: {
    rename: 'integrationRename',
    remove: 'integrationRemove',
    field: 'apikey',
    table: 'integrations',
    id: 'clue',
    restorable: false,
  },
} as const;
type Noun = keyof typeof NOUNS;
type Restorable = { [N in Noun]: (typeof NOUNS)[N]['restorable'] extends true ? N : never }[Noun];
// Every noun's lines are actions of the audit log's table in core: this fails to compile otherwise.
type Audited<A extends AuditAction> = A;
type _Lines = Audited<`${Noun}.${'rename' | 'remove'}` | `${Restorable}.restore`>;

/** What a noun's find answers: the client it belongs to and, under some key, the row. */
type Found = { client: { stamp: string } };

export interface RenameRemoveSpec<N extends Noun, F extends Found, K extends string> {
  /** The row, for a caller who may change it (404 or 403 otherwise), under `row`, with the client it belongs to. */
  find(caller: Caller, id: string, lookup: Lookup): Promise<F>;
  row: K;
  /** Who may rename (client API keys for their own client's projects). */
  renameOptions?: CallOptions;
  /** Throws when the row cannot come back (an upload whose bytes were swept). */
  checkRestore?(row: F[K & keyof F]): Promise<void>;
  /** The rename call's answer, from the row as renamed. */
  renamed(row: F[K & keyof F]): Promise<CallResponse<(typeof NOUNS)[N]['rename']>>;
}

export function defineRenameRemove<N extends Noun, F extends Found, K extends string>(
  app: ContractApp,
  s: CallServices,
  noun: N,
  spec: RenameRemoveSpec<N, F, K>,
): void {
  const wire = NOUNS[noun];
  const idOf = (body: unknown) => (body as Record<string, string>)[wire.field];
  // The tables share the columns written here (name, active and the id); kysely cannot see that through a union.
  const table = (trx: Services['db']) => trx.updateTable(wire.table as 'buckets');
  const idColumn = wire.id as 'stamp';
  const action = (verb: 'rename' | 'remove' | 'restore') => `${noun}.${verb}` as AuditAction;
  const find = async (caller: Caller, id: string, lookup: Lookup) => {
    const found = await spec.find(caller, id, lookup);
    // Every noun's row has its name and active flag.
    return { row: found[spec.row as K & keyof F] as F[K & keyof F] & Named, client: found.client.stamp };
  };

  defineCall(app, s, wire.rename, spec.renameOptions ?? {}, async ({ caller, body }) => {
    const { name } = body as unknown as { name: string };
    const id = idOf(body);
    const { row, client } = await find(caller, id, {});
    await s.db.transaction().execute(async (trx) => {
      await table(trx).set({ name }).where(idColumn, '=', id).execute();
      await audit(trx, { client, actor: actorOf(caller), action: action('rename'), target: id, detail: name });
    });
    return spec.renamed({ ...row, name }) as never;
  });

  defineCall(app, s, wire.remove, {}, async ({ caller, body }) => {
    const { active } = body as unknown as { active: 0 | 1 };
    const id = idOf(body);
    const { row, client } = await find(caller, id, { restoring: active === 1 });
    const restoring = wire.restorable && active === 1 && row.active === 0;
    if (restoring) await spec.checkRestore?.(row);
    await s.db.transaction().execute(async (trx) => {
      await table(trx).set({ active }).where(idColumn, '=', id).execute();
      // Only a change is a line: removing (rows found are active) or bringing a removed one back.
      const verb = active === 0 ? 'remove' : restoring ? 'restore' : null;
      if (verb) await audit(trx, { client, actor: actorOf(caller), action: action(verb), target: id, detail: row.name });
    });
    return { ok: true as const } as never;
  });
}
