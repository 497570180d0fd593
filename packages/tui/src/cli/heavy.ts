// The parts of core that bring the request flows: loaded by the commands that use them (fit, generate, shrink, runs,
// quotes, keys), so `portal --version` and `--help` start as fast as a bare commander program, and a list loads only
// the API client (client.ts) and the schemas of its own calls. A push loads its own parts (uploads/flow.ts).
export {
  createFitRequest,
  createReuseRequest,
  createShrinkRequest,
  isFinalState,
  followRunEvents,
  QUOTE_UNPAID,
  installCommand,
  pythonExample,
} from '@portal/core';
