// The Node.js flags the API process is started with: by `npm start`, by the `portal-server` command (its first line),
// by deploy/local-cluster and by the benchmarks. A launcher's business, not the product code's (docs/PRODUCTION.md).
// bin/portal-server.mjs (the command's bin, there before any build) names the same flags on its first line.
//
// --no-allocation-site-pretenuring: V8 watches where objects are made and, when most of one site's objects outlive a
// young-generation collection, makes that site's objects in the old generation from then on. A burst of writes taught
// it that request-scoped objects shared with the read calls live long; afterwards every list call's rows and answers
// went straight to the old generation, scavenges took 3.5-5 ms instead of 0.7 ms and the process served the project
// list 20-30 % slower for the rest of its life (bench/api's README, "A process that has served writes").
export const SERVER_NODE_FLAGS = ['--no-allocation-site-pretenuring'];
