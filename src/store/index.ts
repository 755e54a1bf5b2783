export { PRIVATE_DIR, PRIVATE_FILE } from "../files/file-modes.js";
export type { ArchivedPrice, ArchivedPrices } from "./archived-prices.js";
export type { AuditLog } from "./audit-log.js";
export type { AuditEntry, AuditEntryInput, AuditQuery } from "./audit-schema.js";
export { StoreError, type StoreErrorKind } from "./errors.js";
export { hasCadence, type StoreHistory } from "./history.js";
export { DataError } from "./history-codec.js";
export { type Cell, flattenRecord, historyColumns } from "./history-columns.js";
export { FLOW_TYPES } from "./history-quantities.js";
export type {
  RetentionResult,
  RetentionRule,
  RetentionRules,
} from "./history-retention.js";
export { jsonObject, timedRows } from "./history-rows.js";
export {
  DOWNSAMPLED_KINDS,
  type FetchedDay,
  HISTORY_KINDS,
  type History,
  type HistoryKind,
  type HistoryQuery,
  type HistoryRecord,
  type HistorySummaryRow,
  type JsonObject,
  type JsonValue,
  type WriteResult,
} from "./history-types.js";
export {
  type LocalSnapshot,
  type LocalSnapshots,
  MemoryLocalSnapshots,
  type SnapshotSetting,
} from "./local-snapshots.js";
export type { Migration } from "./migrate.js";
export {
  MemoryOcppSessions,
  type OcppSession,
  type OcppSessionStart,
  type OcppSessionStop,
  type OcppSessionStore,
} from "./ocpp-sessions.js";
export { openStore, type Store, type StoreOptions } from "./open.js";
export {
  type PriceSide,
  PUBLISHED_PRICES_KEEP_MS,
  type PublishedPrice,
  type PublishedPrices,
} from "./published-prices.js";
export { ReopeningAuditLog } from "./reopening-audit.js";
export type {
  ControlRestore,
  NewObligation,
  RestorePlan,
  RuleObligation,
  RuleObligations,
  SavedValue,
} from "./rule-obligations.js";
export {
  type NewSettingsBackup,
  SETTINGS_BACKUPS_KEPT,
  type SettingsBackupEntry,
  type SettingsBackups,
} from "./settings-backups.js";
export {
  MemorySolarForecasts,
  type SolarForecastDay,
  type SolarForecastSlot,
  type SolarForecasts,
} from "./solar-forecasts.js";
export { MemoryWriteCounts, type WriteCount, type WriteCounts } from "./write-counts.js";
