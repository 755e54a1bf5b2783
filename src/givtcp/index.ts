export { type GivtcpRestFeature, type GivtcpRestOptions, givtcpRestFeature } from "./feature.js";
