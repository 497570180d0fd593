// What every group of calls shares: the text rules of titles, the envelopes, paging, and the shape of one call of the
// route table (`call`). The error body is errorBody.ts's, the error codes and page bounds constants.ts's.
import * as z from 'zod/mini';
import { LIST_ORDERS, LIST_PAGE_MAX, type ListOrder } from '../constants';
import { DESCRIPTION_MAX, TITLE_MAX } from '../../limits';
import { MESSAGES } from '../../messages';
import { checkTitle } from '../../rules/fields';
import { hasControlCharacters } from '../../rules/text';
import { Client, Id } from '../entities';
import { ruled } from '../ruled';

/** Core's text rule (no control or bidi characters) as a check, after the length checks so SPEC's messages come first. */
export const plainText = z.refine<string>((v) => !hasControlCharacters(v), MESSAGES.controlCharacters);
// Titles: core's title rule (checkTitle, which applies the text rule too), on the trimmed value the server stores.
export const TitleCreate = ruled((v) => checkTitle(v, 'create'), true);
export const TitleRename = ruled((v) => checkTitle(v, 'rename'), true);
export const Description = z.string().check(z.maxLength(DESCRIPTION_MAX, MESSAGES.description), plainText);

// ---- shared bodies and envelopes ----
export const Ok = z.object({ ok: z.literal(true) });

/** A whole number from 1 to `max` in a query, each refusal naming the field and the range. */
export const wholeUpTo = (field: string, max: number) =>
  z.coerce
    .number(`${field} must be a whole number from 1 to ${max}`)
    .check(
      z.int(`${field} must be a whole number from 1 to ${max}`),
      z.minimum(1, `${field} must be from 1 to ${max}`),
      z.maximum(max, `${field} must be from 1 to ${max}`),
    );

/**
 * An optional page of a list: `limit` rows after `cursor` (the `next` of the page before). A list asked for a page
 * answers `next` beside `list` (null on the last page); asked without, it answers every row, as SPEC says.
 */
export const Page = {
  limit: z.optional(wholeUpTo('limit', LIST_PAGE_MAX)),
  cursor: z.optional(
    z.string().check(z.regex(/^[0-9]{1,15}\.[0-9]{1,18}(\.[no])?$/, 'cursor must be the next value of an earlier page of this list')),
  ),
};
/**
 * A page of a project, upload, request or model list can also be asked in an order (`order`) and narrowed to names
 * containing `q` (any case, trimmed; an empty `q` narrows nothing). Only with a page (`limit` or `cursor`): the
 * whole list is SPEC's.
 */
export const SearchPage = {
  ...Page,
  order: z.optional(z.enum(LIST_ORDERS, 'order must be newest or oldest')),
  q: z.optional(z.string().check(z.trim(), z.maxLength(TITLE_MAX, `q must be at most ${TITLE_MAX} characters`))),
};
/** A list envelope: the rows, and `next` when a page was asked for. */
export const listOf = <T extends z.ZodMiniType>(row: T) => z.object({ list: z.array(row), next: z.optional(z.nullable(z.string())) });
export type PageQuery = { limit?: number; cursor?: string; order?: ListOrder; q?: string };

export const ClientQuery = z.object({ client: Id });
export const ActiveClientQuery = z.object({ active: z.optional(z.coerce.number().check(z.int())), client: Id, ...SearchPage });
export const ActiveBucketQuery = z.object({ active: z.optional(z.coerce.number().check(z.int())), bucket: Id, ...SearchPage });
export const PagedClientQuery = z.object({ client: Id, ...Page });
export const ActiveQuery = z.object({ active: z.optional(z.coerce.number().check(z.int())) });
export const ClientList = z.object({ list: z.array(Client) });

export type Auth = 'none' | 'basic' | 'bearer' | 'reset';
export interface CallDef {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  auth: Auth;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  response: z.ZodMiniType;
  /** The SPEC message shown when this call fails (section 8), where SPEC names one. */
  failure?: string;
  /** The answer is a stream of lines of this media type, each one `response` (the listen stream). */
  stream?: 'application/x-ndjson';
}

/** One call of the route table; a call that names no `auth` takes the session's bearer token, as most calls do. */
export function call<const D extends CallDef>(d: D): D;
export function call<const D extends Omit<CallDef, 'auth'>>(d: D): D & { auth: 'bearer' };
export function call(d: Omit<CallDef, 'auth'> & { auth?: Auth }): CallDef {
  return { ...d, auth: d.auth ?? 'bearer' };
}
