// The one API client of the browser, for every page: its schemas load once the first page is interactive (or on the
// first call), so the login page draws without them. A deep link's first calls start early (src/pages.ts).
import { lazyApiClient } from '@portal/core/client/lazy';
import { tokenStore } from './session';

export const api = lazyApiClient({ baseUrl: '', tokens: tokenStore }, () => import('./api').then((m) => m.api));
