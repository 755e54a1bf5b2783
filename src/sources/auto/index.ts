export { autoControl } from "./control.js";
export {
  PathChoice,
  type PathChoiceOptions,
  type PathSetting,
  type PathState,
  type PathSwitch,
} from "./path-choice.js";
export { BothPathsFailedError, composeResources, pairKey } from "./resources.js";
export { type AutoSource, type AutoSourceOptions, autoSource, type InventoryFrom } from "./source.js";
