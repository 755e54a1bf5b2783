import { actionKind } from "../../rules/file/action-schema.js";
import { type Rule, type RulesFile, triggerKind } from "../../rules/file/schema.js";

/** Triggers and conditions that wait on the car: the replay has no charger, so they never hold. */
const CAR_KEYS = new Set(["ev", "ev_plugged", "ev_status"]);

/**
 * What of each rule a replay cannot carry out, in words, by the rule's name: its charger commands
 * and notifications (nothing to act on), triggers and conditions on the car (no charger state),
 * a car in an optimise rule; and the rules switched off. Empty when the whole file replays.
 */
export function notReplayed(rules: RulesFile): string[] {
  const lines: string[] = [];
  for (const rule of rules.rules) {
    const parts = partsOf(rule);
    if (!rule.enabled) lines.push(`${rule.name} (switched off in the file)`);
    else if (parts.length > 0) lines.push(`${rule.name} (${parts.join(", ")})`);
  }
  return lines;
}

function partsOf(rule: Rule): string[] {
  const parts = new Set<string>();
  for (const action of rule.do) {
    const kind = actionKind(action);
    if (kind === "charger") parts.add("charger commands");
    if (kind === "notify") parts.add("notifications");
  }
  for (const trigger of rule.when) {
    if (CAR_KEYS.has(triggerKind(trigger))) parts.add("a trigger on the car");
    if (trigger.optimise?.car) parts.add("the optimiser's car");
  }
  if (Object.entries(rule.if ?? {}).some(([key, value]) => value !== undefined && CAR_KEYS.has(key)))
    parts.add("a condition on the car, never met");
  return [...parts];
}
