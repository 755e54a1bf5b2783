import type { EntityDef, StateValue } from "./entities/index.js";

/**
 * A device's state with every key an entity reads: null where nothing is known yet, which Home
 * Assistant shows as unknown without a template warning. Extra keys are kept.
 */
export function completeState(
  entities: readonly EntityDef[],
  state: Readonly<Record<string, StateValue>>,
): Record<string, StateValue> {
  const complete: Record<string, StateValue> = {};
  for (const entity of entities) if (entity.component !== "button") complete[entity.key] = null;
  return Object.assign(complete, state);
}
