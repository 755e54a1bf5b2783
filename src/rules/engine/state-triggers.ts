import type { Rule } from "../file/schema.js";
import { isWindowTrigger, triggerKind } from "../file/schema.js";
import { type LiveState, stateHolds, triggerState } from "./live-state.js";

/**
 * State triggers (battery_soc_below, ev_status, ...) fire on the crossing from false to true;
 * the first value known only sets where each one stands.
 */
export class StateTriggers {
  private readonly held = new Map<string, boolean | undefined>();

  constructor(private readonly rules: readonly Rule[]) {}

  /** The rules, in order, with a state trigger that became true in this state (once per trigger). */
  crossed(state: LiveState): Rule[] {
    const fired: Rule[] = [];
    for (const rule of this.rules) {
      rule.when.forEach((trigger, index) => {
        if (triggerKind(trigger) === "cron" || isWindowTrigger(trigger)) return;
        const key = `${rule.name}#${index}`;
        const holds = stateHolds(triggerState(trigger), state);
        const before = this.held.get(key);
        this.held.set(key, holds);
        if (holds === true && before === false) fired.push(rule);
      });
    }
    return fired;
  }
}
