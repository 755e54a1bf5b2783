import type { CloudClient } from "../../cloud/index.js";

/**
 * The ports only the cloud has, named as such: what the daemon reads of the cloud alone (its account's
 * snapshots and preset profiles, its long history), in its client's words (no other path has them to translate).
 */

/** Part of one section of the cloud client: the methods named, nothing else. */
type Section<K extends keyof CloudClient, M extends keyof CloudClient[K]> = Pick<CloudClient[K], M>;

/** What bridge requests may look up without changing anything: whether a snapshot exists, the preset profiles. Only the cloud has them. */
export interface AccountReads {
  readonly snapshots: Section<"snapshots", "exists">;
  readonly presetProfiles: Section<"presetProfiles", "list">;
}

/**
 * The long history, read only: the gap backfill and the archive. Only the cloud has it: its data
 * points, fault events, energy flows, EV chargers' sessions and meter data, smart devices' data,
 * and the account and devices they are listed under.
 */
export interface HistorySource {
  readonly account: Section<"account", "get">;
  readonly communicationDevices: Section<"communicationDevices", "list">;
  readonly inverterData: Section<"inverterData", "dataPoints" | "events">;
  readonly energyFlows: Section<"energyFlows", "flows">;
  readonly evChargers: Section<"evChargers", "list" | "chargingSessions" | "meterData">;
  readonly smartDevices: Section<"smartDevices", "list" | "data">;
}
