// What the keys verbs share.
import { type ClientApiKey } from '@portal/core';
import type { Session } from '../context';

export async function activeKeys(s: Session): Promise<{ clientId: string; keys: ClientApiKey[] }> {
  const client = await s.client();
  const api = await s.api();
  const res = await api.calls.apikeyList({ client: client.stamp });
  return { clientId: client.stamp, keys: res.apikey.list.filter((k) => k.active === 1) };
}
