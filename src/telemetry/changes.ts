import { isDeepStrictEqual } from "node:util";
import type { Fetched } from "../sources/index.js";
import { type DeviceState, stateOf } from "./states.js";

/** Which value a state replaces: the same kind for the same device. */
function keyOf(state: DeviceState): string {
  return `${state.kind} ${"serial" in state ? state.serial : state.uuid}`;
}

/**
 * The states of fetched answers that differ from the last one of their kind and device, fetch
 * time aside: what a consumer that shows values (Home Assistant, the page) acts on. Each
 * consumer keeps its own, so none depends on another's order.
 */
export class StateChanges {
  private readonly last = new Map<string, Omit<DeviceState, "at">>();

  /** The answer's state when it changed; undefined when it carries none or the same as before. */
  of(fetched: Fetched): DeviceState | undefined {
    const state = stateOf(fetched);
    return state && this.changed(state) ? state : undefined;
  }

  changed(state: DeviceState): boolean {
    const { at: _at, ...value } = state;
    const key = keyOf(state);
    const previous = this.last.get(key);
    if (previous !== undefined && isDeepStrictEqual(previous, value)) return false;
    this.last.set(key, value);
    return true;
  }
}
