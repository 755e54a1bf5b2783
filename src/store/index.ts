export type { AuditLog } from "./audit-log.js";
export type { AuditEntry, AuditEntryInput, AuditQuery } from "./audit-schema.js";
export { StoreError, type StoreErrorKind } from "./errors.js";
export type { Migration } from "./migrate.js";
export { openStore, type Store, type StoreOptions } from "./open.js";
