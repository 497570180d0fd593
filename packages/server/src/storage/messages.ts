// The sentences an upload fails with, the same on every store.
export const sizeMismatch = (got: number, registered: number) => `The file sent has ${got} bytes but ${registered} were registered.`;
export const CHECKSUM_MISMATCH = "The file's SHA-256 checksum differs from the one registered: the file changed or was damaged in transit.";
export const LINK_USED =
  'This upload link has already been used: the file was received and can no longer change. Register the file again to send other bytes.';
export const LINK_EXPIRED = 'This upload link has expired: register the file again.';
