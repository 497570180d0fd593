// The rules every door shares, one module each: single fields, files, forms, states, shrink reports and teams.
export * from './fields';
export * from './files';
export * from './forms';
export * from './status';
export * from './shrink';
export * from './team';
export * from './text';
export { fitSizesOf } from './fitSizes';
export * from './security';
export * from './account';
export * from './fitColumns';
export * from './getStarted';
export * from './edgeNames';
export * from './fitForm';
export * from './webhooks';
