// Emails compare in one normal form everywhere (core's emailKey: NFKC, lower case), computed by the database on both
// sides so the comparison matches the unique index on users and the one-pending-invitation index on invites.
import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from './db/schema';

/** The normal form of an email column or value, as the indexes of migration 11 compute it. */
export const emailKeyOf = (value: Expression<string> | string): RawBuilder<string> =>
  sql<string>`lower(normalize(${typeof value === 'string' ? value.trim() : value}, NFKC))`;

/** `column` holds the same address as `email` in the normal form. */
export const sameEmail = (column: string, email: string) => sql<boolean>`${emailKeyOf(sql.ref(column))} = ${emailKeyOf(email)}`;

/** The account with this email in the normal form; an exact match first where look-alikes were stored before. */
export const userByEmail = (db: Kysely<DB>, email: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where(sameEmail('email', email))
    .orderBy(sql`lower(email) = ${email.trim().toLowerCase()}`, 'desc')
    .executeTakeFirst();

/** Whether two addresses are the same in the normal form, as the database compares them. */
export async function sameAddress(db: Kysely<DB>, a: string, b: string): Promise<boolean> {
  const r = await sql<{ same: boolean }>`select ${emailKeyOf(a)} = ${emailKeyOf(b)} as same`.execute(db);
  return !!r.rows[0]?.same;
}
