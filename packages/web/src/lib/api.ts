// The real API client of the browser (same origin, token in local storage, sign-in failures sent to the app); pages
// reach it through core's hooks, over the lazy client made in main.tsx.
import { ApiClient } from '@portal/core';
import { callTable } from '@portal/core/contract/table';
import { signalAuthFailure, tokenStore } from './session';

export const api = new ApiClient({ calls: callTable, baseUrl: '', tokens: tokenStore, onAuthFailure: signalAuthFailure });
