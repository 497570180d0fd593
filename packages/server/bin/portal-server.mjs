#!/usr/bin/env -S node --no-allocation-site-pretenuring
// `portal-server`: the built server (dist/main.js). The bin is this file, present from checkout, so installing the
// workspace links it before the first build (a bin naming dist/main.js made pnpm warn "Failed to create bin" on every
// fresh install). Its first line starts Node with the server's flags, as dist/main.js's does (node-flags.mjs).
await import('../dist/main.js');
