#!/usr/bin/env node
// The floor for `portal projects list --json`: a bare Node script making the same call (GET /api/bucket/item over
// node:http with the token) and printing the list as JSON, with nothing else (no checks, no config file, no retries).
// Usage: node bare-list.mjs <api> <token> <client>
import { request } from 'node:http';

const [api, token, client] = process.argv.slice(2);
const url = new URL(`/api/bucket/item?active=1&client=${encodeURIComponent(client)}`, api);
request(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }, (res) => {
  const chunks = [];
  res.on('data', (c) => chunks.push(c));
  res.on('end', () => {
    if (res.statusCode !== 200) {
      process.stderr.write(`HTTP ${res.statusCode}\n`);
      process.exit(1);
    }
    process.stdout.write(JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')).bucket.list, null, 2) + '\n');
  });
}).end();
