/** Owner-only permissions for what the daemon writes: history, the audit log, health, exports. */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;
