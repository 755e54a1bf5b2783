export { webFeature } from "./feature.js";
export type { CarTarget } from "./live-cars.js";
export { overlaps, type PlanHelp, type PlanLive, type PlanView } from "./plan-view.js";
export { RULES_HELP } from "./routes.js";
