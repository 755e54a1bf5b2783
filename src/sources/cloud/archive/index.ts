export { isDay } from "../../../time/index.js";
export { type ArchiveOptions, archiveAccount } from "./archive.js";
export { ARCHIVE_PAGE_SIZE } from "./fetch.js";
export { ARCHIVE_KINDS, type ArchiveKind, isArchiveKind } from "./kinds.js";
export { DEFAULT_LOOKBACK_DAYS, type PlanOptions, planArchive, type Task } from "./plan.js";
export { type ProgressView, progressView } from "./progress.js";
export { type ArchiveReport, type Failure, formatReport, type KindTotals, type Missing } from "./report.js";
export { type Progress, type RunOptions, runTasks } from "./run.js";
export { type ArchiveDevice, type ArchiveTargets, discoverTargets, targetsOf } from "./targets.js";
