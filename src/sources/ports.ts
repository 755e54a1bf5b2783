import type { CloudClient } from "../cloud/index.js";
import type { Logger } from "../log/log.js";
import type { Inventory } from "./inventory.js";
import type { PollConfig } from "./poll-config.js";
import type { Resource } from "./resource.js";

/**
 * The ports through which features reach the house, whichever path carries them (the cloud
 * now, the dongle on the LAN next). Telemetry gets a DeviceSource, the control gate a
 * DeviceControl, the history's backfill and archive a HistorySource; none of them can name the
 * client behind it, and the types they get cannot write where they should only read.
 *
 * The control and history ports keep the cloud's words (sections and methods) because the cloud
 * is their vocabulary: the values, answers and codes they carry are the service's. A path that
 * lacks one of them answers as the cloud does for a device without it (404, 403).
 */

/** The two ways to reach a device. */
export type DevicePath = "cloud" | "local";

/** Part of one section of the cloud client: the methods named, nothing else. */
type Section<K extends keyof CloudClient, M extends keyof CloudClient[K]> = Pick<CloudClient[K], M>;

export interface DiscoverOptions {
  readonly signal?: AbortSignal;
  readonly logger?: Logger;
  /**
   * A refresh: the account, sites, listings and supported commands of devices already known
   * are kept, so only the device lists are asked for again.
   */
  readonly previous?: Inventory;
}

/** How many requests the path can carry, for fitting the polls into it. */
export interface PollBudget {
  /** The budget's window, ms. */
  readonly windowMs: number;
  /** Live requests one window may carry. */
  liveAllowance(): number;
  /** Requests one window may carry in all (the limit in force). */
  limit(): number;
  /** Tells the budget how many live requests a window will carry, so background work leaves them. */
  expectLive(perWindow: number): void;
}

/** Discovers the devices and their capabilities, and fetches each resource into the one fetched shape. */
export interface DeviceSource {
  readonly budget: PollBudget;
  /** The devices with their settings, presets and commands; `previous` makes it a refresh. */
  discover(options?: DiscoverOptions): Promise<Inventory>;
  /** Every resource to poll for the inventory at these intervals; `now` stamps what they fetch. */
  resources(inventory: Inventory, poll: PollConfig, now: () => number): Resource[];
  /**
   * Tells `listener` when the source learns that what discovery found has changed (a dongle's
   * identity bank answered at last): the inventory is read again then, not at the next refresh.
   * Returns the unsubscribe.
   */
  onDevicesChanged?(listener: () => void): () => void;
}

/** What bridge requests may look up without changing anything: whether a snapshot exists, the preset profiles. */
export interface AccountReads {
  readonly snapshots: Section<"snapshots", "exists">;
  readonly presetProfiles: Section<"presetProfiles", "list">;
}

/** Reads of the control values a change writes: what the gate reads back, and a restore reads before and after. */
export interface ControlReads {
  readonly inverterControl: Section<"inverterControl", "readSetting" | "presetValues">;
  readonly evChargers: Section<"evChargers", "commandData" | "get">;
}

/**
 * Writes a setting or a preset, sends an EV charger command, runs a device action (snapshots,
 * preset profiles, notifications, a smart device's data point) and reads back. Only the control
 * gate holds one.
 */
export interface DeviceControl {
  readonly inverterControl: Section<
    "inverterControl",
    "readSetting" | "presetValues" | "writeSetting" | "modifyPreset"
  >;
  readonly evChargers: Section<"evChargers", "commandData" | "get" | "sendCommand">;
  readonly snapshots: Section<"snapshots", "take" | "restore" | "delete">;
  readonly presetProfiles: Section<"presetProfiles", "apply" | "create" | "update" | "delete">;
  readonly notifications: Section<"notifications", "send">;
  readonly smartDevices: Section<"smartDevices", "addData">;
  /** How long the path waits for a device's answer before it gives up on it. */
  readonly answerMs: number;
  /**
   * The path that carries this device's changes now: "local" (its dongle on the LAN) or "cloud".
   * With `source: auto` it can change between two calls.
   */
  pathOf(serial: string): DevicePath;
}

/** The long history, read only: the gap backfill and the archive. Only the cloud has it. */
export interface HistorySource {
  readonly account: Section<"account", "get">;
  readonly communicationDevices: Section<"communicationDevices", "list">;
  readonly inverterData: Section<"inverterData", "dataPoints" | "events">;
  readonly energyFlows: Section<"energyFlows", "flows">;
  readonly evChargers: Section<"evChargers", "list" | "chargingSessions" | "meterData">;
  readonly smartDevices: Section<"smartDevices", "list" | "data">;
}
