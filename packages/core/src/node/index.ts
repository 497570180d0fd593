// Node-only helpers (file streams): not for the browser.
export * from './file';
