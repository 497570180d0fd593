// The terminals a test file drew with Ink's own render (ink-testing-library keeps its own list), closed when the file ends.
export const mountedTerminals = new Set<{ unmount(): void }>();
