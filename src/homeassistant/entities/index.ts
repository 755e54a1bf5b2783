export { entitiesFor, findEntity } from "./catalogue.js";
export { clockProblemState } from "./clock.js";
export { type CommandResult, commandFor } from "./command.js";
export { controlState } from "./control-state.js";
export { freshnessState } from "./freshness.js";
export { pathState } from "./path.js";
export { detailsOf, inventoryState, type StatePatch, statePatch } from "./state.js";
export type {
  CommandBinding,
  CommandTarget,
  Component,
  ControlValues,
  DeviceDetails,
  EntityDef,
  EvCommandDataMap,
  StateValue,
  StateValues,
} from "./types.js";
export { slug } from "./values.js";
export { writeCountState } from "./write-count.js";
