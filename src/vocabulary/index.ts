export * from "./charger.js";
export * from "./charger-commands.js";
export * from "./devices.js";
export * from "./ems-statuses.js";
export * from "./inverter-keys.js";
export * from "./presets.js";
export * from "./values.js";
