// The parts of core that bring zod, ofetch and hashing: loaded when a command first talks to the API, so
// `portal --version` and `--help` start as fast as a bare commander program.
export {
  ApiClient,
  ApiError,
  isApiError,
  MESSAGES,
  defaultPut,
  runUpload,
  sha256Stream,
  convertTables,
  TableTextError,
  createFitRequest,
  createReuseRequest,
  createShrinkRequest,
  isFinalState,
  followRunEvents,
  QUOTE_UNPAID,
  installCommand,
  pythonExample,
  timeoutText,
  unreachableText,
} from '@portal/core';
export { fileSource } from '@portal/core/node';
export { CALLS } from '@portal/core';

import { ApiClient, type ApiClientOptions } from '@portal/core';
import { plainHttp } from '@portal/core/node';
// The entity modules themselves (never core's index as a namespace: see fields.ts).
import * as entities from '@portal/core/contract/entities';
import * as team from '@portal/core/contract/team';

/** Every field name of the contract's objects, for telling a `--json` field list from a command's own argument. */
export const entityFields = (): string[] =>
  [...Object.values(entities), ...Object.values(team)].flatMap((value) => {
    const shape = (value as { shape?: unknown } | null)?.shape;
    return shape && typeof shape === 'object' ? Object.keys(shape) : [];
  });

/** The API client of the `portal` program: its calls go over node:http, without loading Node's undici-backed fetch. */
export const nodeApi = (opts: ApiClientOptions) => new ApiClient({ http: plainHttp, ...opts });
