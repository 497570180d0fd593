// The parts of core that bring the flows and hashing: loaded by the commands that use them (push, fit, runs, ...), so
// `portal --version` and `--help` start as fast as a bare commander program, and a list loads only the API client
// (client.ts) and the schemas of its own calls.
export {
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
