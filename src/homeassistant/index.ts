export type { ClockSyncNow } from "./bridge-actions.js";
export type { DiscoveryMessage, Origin } from "./discovery.js";
export { findEntity, slug } from "./entities/index.js";
export { type HomeAssistant, type HomeAssistantOptions, homeAssistant } from "./home-assistant.js";
export { type RulesClock, rulesClockOn } from "./rules-clock.js";
export { rulesNode } from "./rules-discovery.js";
export type { AttachRulesOptions } from "./rules-entities.js";
export { Topics } from "./topics.js";
