import type { EntityDef, StateValue } from "./entities/index.js";

/**
 * A device's state with every key an entity reads: null where nothing is known yet, which Home
 * Assistant shows as unknown without a template warning. Extra keys are kept.
 */
export function completeState(
  entities: readonly EntityDef[],
  state: Readonly<Record<string, StateValue>>,
): Record<string, StateValue> {
  return completeStateOf(stateKeys(entities), state);
}

/** The keys a device's state must carry: every entity's but a button's, which reads none. */
export function stateKeys(entities: readonly EntityDef[]): string[] {
  return entities.filter((entity) => entity.component !== "button").map((entity) => entity.key);
}

/** completeState() from the keys stateKeys() gave. */
export function completeStateOf(
  keys: readonly string[],
  state: Readonly<Record<string, StateValue>>,
): Record<string, StateValue> {
  const complete: Record<string, StateValue> = {};
  for (const key of keys) complete[key] = null;
  return Object.assign(complete, state);
}

const internedKeys = new Map<string, readonly string[]>();

/**
 * The same key list for every device that has it: a fleet of one model holds one list, not a
 * thousand. The lists are few (one per model, firmware and layout), so they are kept.
 */
export function internStateKeys(keys: readonly string[]): readonly string[] {
  const signature = keys.join("\n");
  const known = internedKeys.get(signature);
  if (known) return known;
  internedKeys.set(signature, keys);
  return keys;
}
