// A plugin is handed the services it names and nothing else of the app's bag (its options' type says which).
import type { Services } from '../services';

export function only<K extends keyof Services>(services: Services, ...keys: K[]): Pick<Services, K> {
  return Object.fromEntries(keys.map((k) => [k, services[k]])) as Pick<Services, K>;
}
