export { type Backfill, type BackfillOptions, DEFAULT_BACKFILL_DAYS, startBackfill } from "./backfill.js";
export { type HistoryFeature, type HistoryFeatureOptions, historyFeature } from "./feature.js";
export { fetchedRecords } from "./fetched-records.js";
export { HistorySink } from "./sink.js";
