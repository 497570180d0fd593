// The API client and token rules.
export * from './api';
export * from './errors';
export * from './token';
export * from './lazy';
export * from './url';
export * from './network';
export * from './pages';
