export * from "./charger.js";
export * from "./device-actions.js";
export * from "./devices.js";
export * from "./ems-statuses.js";
export * from "./failures.js";
export * from "./inverter-keys.js";
export * from "./presets.js";
export * from "./values.js";
