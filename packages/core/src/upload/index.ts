// Uploads: sources, hashing, the direct PUT, and the pipeline.
export * from './types';
export * from './hash';
export * from './put';
export * from './pipeline';
export * from './table';
export * from './sample';
