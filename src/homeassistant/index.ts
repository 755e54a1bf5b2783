export type { DiscoveryMessage, Origin } from "./discovery.js";
export { findEntity, slug } from "./entities/index.js";
export { type HomeAssistant, type HomeAssistantOptions, homeAssistant } from "./home-assistant.js";
export { rulesNode } from "./rules-discovery.js";
export { type AttachRulesOptions, type RulesClock, rulesClockOn } from "./rules-entities.js";
export { Topics } from "./topics.js";
