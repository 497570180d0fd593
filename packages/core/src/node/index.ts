// Node-only helpers (file streams, the API calls' transport): not for the browser.
export * from './file';
export * from './http';
