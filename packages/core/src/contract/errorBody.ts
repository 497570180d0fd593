// The body of every error answer: a code (ERROR_CODES) and a sentence. A module of its own that needs no entity: the
// API client reads it on every failed call, and core's index carries it, without building the contract's other schemas.
import * as z from 'zod/mini';

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type ErrorBody = z.infer<typeof ErrorBody>;
