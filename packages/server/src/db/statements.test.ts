// The typed query path: a statement is built once per shape with Kysely's types from db/schema.ts (a column that is
// not in the schema does not compile: the `@ts-expect-error` lines below fail the typecheck the day they compile),
// and each call's values go to its parameters, never into its text.
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { statement } from './statements';
import { columnOf, columnsOf, fillsFrom, ownColumn, unionPart, type UnionRow } from './union';

describe('statements', () => {
  it('builds a statement once per shape, its values as parameters in the order the text uses them', () => {
    let built = 0;
    const build = () =>
      statement('uploads_of', 'one', (db, p: { upload: string; least: number }) => {
        built++;
        return db
          .selectFrom('uploads')
          .select(['stamp', 'size'])
          .where('rend', '=', p.upload)
          .where('size', '>=', p.least)
          .where('stored', '=', 1);
      });
    const first = build();
    expect(build()).toBe(first);
    expect(built).toBe(1);
    expect(first.name).toMatch(/^uploads_of_\d+$/);
    expect(first.sql).toBe('select "stamp", "size" from "uploads" where "rend" = $1 and "size" >= $2 and "stored" = $3');
    expect(first.values).toEqual([{ key: 'upload' }, { key: 'least' }, { fixed: 1 }]);
    expect(first.sql).not.toContain("'");
  });

  it("names a union's columns and their types from the schema, a null of its type where a part does not fill it", () => {
    const columns = { ...columnsOf('rends', ['stamp', 'name']), u_size: columnOf('uploads', 'size'), found: ownColumn<boolean>('boolean') };
    const s = statement('union_example', 'one', (db, p: { upload: string }) =>
      unionPart(db.selectFrom('rends as r').where('r.stamp', '=', p.upload), columns, 1, () => fillsFrom(columns, 'rends', 'r')).unionAll(
        unionPart(db.selectFrom('uploads as u'), columns, 2, (eb) => ({ u_size: eb.ref('u.size'), found: sql<boolean>`true` })),
      ),
    );
    expect(s.sql).toContain('null::bigint as "u_size"');
    expect(s.sql).toContain('"u"."size" as "u_size"');
    const row: UnionRow<typeof columns> = { k: 1, stamp: 'r_1', name: 'n', u_size: null, found: null };
    expect(row.k).toBe(1);
  });

  it('refuses, at compile time, a column the schema does not have', () => {
    // @ts-expect-error: uploads has no column `bytes` (renamed or never there)
    columnOf('uploads', 'bytes');
    // @ts-expect-error: nor may a list read one
    columnsOf('rends', ['stamp', 'title']);
    statement('typed_example', 'one', (db, p: { upload: string }) =>
      // @ts-expect-error: a statement's columns are the schema's
      db.selectFrom('uploads').select(['stamp', 'file_size']).where('rend', '=', p.upload),
    );
    statement('typed_fill', 'one', (db) =>
      unionPart(db.selectFrom('uploads as u'), { u_size: columnOf('uploads', 'size') }, 1, (eb) => ({
        // @ts-expect-error: a part fills a column from the schema's columns of its rows
        u_size: eb.ref('u.bytes'),
      })),
    );
    expect(true).toBe(true);
  });
});
