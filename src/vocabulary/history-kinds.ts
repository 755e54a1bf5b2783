/**
 * The kinds of history row, shared by the store (its tables) and the configuration (retention
 * and downsampling per kind), which may not import each other.
 */

/** What a history row is. Each kind has its own natural key and cadence. */
export const HISTORY_KINDS = [
  /** An inverter data point (every 5 minutes): power, today's and total counters. key "". */
  "inverter.point",
  /** system-data/latest as fetched by the live poll. key "". */
  "inverter.live",
  /** meter-data/latest as fetched by the counters poll. key "". */
  "inverter.counters",
  /** EMS system data. key "". */
  "ems",
  /** One EV charger meter record: key is the meter id; data holds every measurand of that moment. */
  "ev.meter",
  /** A charging session, at = started_at; updated in place when it stops. key "". */
  "ev.session",
  /** An inverter fault event, at = start_time; key is the fault name; updated when it clears. */
  "inverter.event",
  /** Energy flows, grouping 0 (half-hourly): at = start_time; data {"0": kWh, ..., "6": kWh}. key "". */
  "flow.half_hour",
  /** Energy flows, grouping 1 (daily). key "". */
  "flow.day",
  /** A smart device data point. key "". */
  "smart.data",
  /** A battery module reading from the device lists: key is the module serial. */
  "battery.module",
] as const;

export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** The kinds that come faster than half-hourly, where downsampling makes sense. */
export const DOWNSAMPLED_KINDS: readonly HistoryKind[] = [
  "inverter.point",
  "inverter.live",
  "ems",
  "ev.meter",
  "smart.data",
];
