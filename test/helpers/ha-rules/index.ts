export { checkHomeAssistantRules, type ReplayResult, replayHomeAssistant } from "./checker.js";
export { countByRule, summariseFindings } from "./summary.js";
export type { CheckOptions, DiscoveredEntity, Finding, RecordedMessage } from "./types.js";
