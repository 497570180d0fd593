// Public API of @portal/core: framework-free, no side effects on import.
export * from './contract';
export * from './messages';
export * from './limits';
export * from './rules';
export * from './format';
export * from './billing';
export * from './screens';
export * from './client';
export * from './timers';
export * from './poller';
export * from './loader';
export * from './upload';
export * from './flows';
export * from './insight';
export * from './format/python';
export * from './palette';
export * from './refresh';
