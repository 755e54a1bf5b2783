import type { PollConfig } from "../../src/sources/index.js";

/** The configuration's poll defaults (src/config/schema.ts), as milliseconds. */
export const DEFAULT_POLL: PollConfig = {
  inverter: 60_000,
  meter: 300_000,
  ems: 60_000,
  ev_charger: 30_000,
  events: 300_000,
  smart_device: 300_000,
};
