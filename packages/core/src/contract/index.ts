// The one contract: entities, calls, route table.
export * from './constants';
export * from './entities';
export * from './calls';
export * from './team';
export * from './preview';
export * from './projection';
export * from './security';
export * from './account';
export * from './reference';
export * from './webhooks';
