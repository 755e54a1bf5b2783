export { bridgeNode } from "./bridge-discovery.js";
export type { CloudRefusal, DevicePathHealth } from "./bridge-payloads.js";
export { type HealthVerdict, judgeHealth } from "./check.js";
export { healthFeature } from "./feature.js";
export { type DeviceFreshness, Freshness, type FreshnessOptions, STALE_POLLS } from "./freshness.js";
export { HEALTH_FILE_ENV, type HealthStatus, healthFilePath, healthStatusSchema } from "./status.js";
export { HEALTH_INTERVAL_MS, type HealthWriter, type HealthWriterOptions, startHealthWriter } from "./writer.js";
