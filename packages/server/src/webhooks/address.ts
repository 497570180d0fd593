// Where a delivery may go: the receiver's host is resolved at delivery time and every address it resolves to must be
// a public unicast one (no loopback, private, link-local, metadata, carrier-grade NAT or reserved range) unless the
// operator allows private addresses (PORTAL_WEBHOOK_ALLOW_PRIVATE=1). The connection then goes to the address that
// was checked (the request's `lookup`), so a second DNS answer cannot point it elsewhere.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { checkWebhookUrl } from '@portal/core';

/** An address's range as ipaddr.js names it ('unicast' for public addresses), IPv4-mapped IPv6 read as IPv4. */
export const rangeOf = (address: string): string => ipaddr.process(address).range();

export class RefusedAddress extends Error {}

/** Milliseconds a name may take to resolve (the attempt's own deadline starts after). */
const DNS_TIMEOUT_MS = 5000;

export interface Target {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Resolves the URL's host and checks its addresses; throws RefusedAddress with a sentence when refused. */
export async function resolveTarget(raw: string, allowPrivate: boolean, resolve = dnsLookup): Promise<Target> {
  const problem = checkWebhookUrl(raw, allowPrivate);
  if (problem) throw new RefusedAddress(problem);
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let found: Array<{ address: string; family: number }>;
  let timer: NodeJS.Timeout | undefined;
  try {
    found = ipaddr.isValid(host)
      ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }]
      : await Promise.race([
          resolve(host, { all: true }),
          new Promise<never>((_, fail) => {
            timer = setTimeout(() => fail(Object.assign(new Error('DNS timeout'), { code: 'a timeout' })), DNS_TIMEOUT_MS);
          }),
        ]);
  } catch (err) {
    throw new RefusedAddress(`${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'DNS error'}).`);
  } finally {
    clearTimeout(timer);
  }
  if (found.length === 0) throw new RefusedAddress(`${host} has no address.`);
  if (!allowPrivate) {
    for (const a of found) {
      const range = rangeOf(a.address);
      if (range !== 'unicast')
        throw new RefusedAddress(
          `${host} resolves to ${a.address}, a ${range} address: webhooks go to public addresses only (PORTAL_WEBHOOK_ALLOW_PRIVATE=1 allows others).`,
        );
    }
  }
  return { url, address: found[0].address, family: found[0].family === 6 ? 6 : 4 };
}

/** A `lookup` for the request that answers the checked address, whatever the host. */
export const pinnedLookup =
  (t: Target): LookupFunction =>
  (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all)
      (cb as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: t.address, family: t.family }]);
    else cb(null, t.address, t.family);
  };
