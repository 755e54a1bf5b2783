export { webFeature } from "./feature.js";
export { overlaps, type PlanView } from "./plan-view.js";
