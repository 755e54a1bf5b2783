import type { Logger } from "../log/log.js";
import type { ChargerControl, ChargerReads, CloudChargerCommands, CloudChargerReads } from "./charger-ports.js";
import type { ClockControl } from "./clock-port.js";
import type { AccountReads } from "./cloud/ports.js";
import type { CloudOnlyActions } from "./cloud-only-actions.js";
import type { InverterControl, InverterReads } from "./control-ports.js";
import type { Inventory } from "./inventory.js";
import type { PollConfig } from "./poll-config.js";
import type { Resource } from "./resource.js";

/**
 * The ports through which features reach the house, whichever path carries them (the cloud, the
 * dongle on the LAN). Telemetry gets a DeviceSource, the control gate a DeviceControl, the
 * history's backfill and archive a HistorySource; none of them can name the client behind it,
 * and the types they get cannot write where they should only read.
 *
 * A device's settings and presets go through InverterControl (control-ports.ts), in the daemon's
 * own terms, which every path implements; an EV charger's commands go through ChargerControl and
 * CloudChargerCommands (charger-ports.ts), in the daemon's terms too. What else only the cloud has
 * (the account's snapshots and preset profiles, notifications, smart devices' data points, the
 * long history) stays behind ports named as cloud-only, the reads of the account and the long
 * history (AccountReads, HistorySource) in the cloud client's words in cloud/ports.ts; a path
 * without them refuses them.
 */

/** The two ways to reach a device. */
export type DevicePath = "cloud" | "local";

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

/**
 * What only the cloud has: EV charger commands (in the daemon's words), and the device actions
 * in the daemon's too (CloudOnlyActions: the account's snapshots and preset profiles,
 * notifications and smart devices' data points). A path without the cloud refuses each of them,
 * sending nothing.
 */
export interface CloudOnlyControl extends AccountReads {
  readonly evChargers: CloudChargerCommands;
  readonly snapshots: AccountReads["snapshots"] & CloudOnlyActions["snapshots"];
  readonly presetProfiles: AccountReads["presetProfiles"] & CloudOnlyActions["presetProfiles"];
  readonly notifications: CloudOnlyActions["notifications"];
  readonly smartDevices: CloudOnlyActions["smartDevices"];
}

/** Reads of the control values a change writes: what the gate reads back, and a restore reads before and after (a DeviceControl is one). */
export interface ControlReads {
  readonly inverters: InverterReads;
  readonly cloudOnly: { readonly evChargers: CloudChargerReads };
  /** What a charger's own path (OCPP) knows of it, for a charger that path carries now. */
  readonly chargers?: ChargerReads;
  /** The path that carries the device's changes now (DeviceControl.pathOf), where the reads know it. */
  pathOf?(serial: string): DevicePath;
}

/**
 * Writes a setting or a preset (InverterControl, which every path implements), and through the
 * cloud-only port sends an EV charger command or runs a device action (snapshots, preset
 * profiles, notifications, a smart device's data point); and reads back. Only the control gate
 * holds one.
 */
export interface DeviceControl {
  readonly inverters: InverterControl;
  readonly cloudOnly: CloudOnlyControl;
  /** EV chargers' commands over a path of their own (OCPP), for a charger that path carries now. */
  readonly chargers?: ChargerControl;
  /** Inverters' and EMSs' clocks, where a path can set them (the LAN); only control/'s clock sync uses it. */
  readonly clocks?: ClockControl;
  /** How long the path waits for a device's answer before it gives up on it. */
  readonly answerMs: number;
  /**
   * The path that carries this device's changes now: "local" (its dongle on the LAN) or "cloud".
   * With `source: auto` it can change between two calls.
   */
  pathOf(serial: string): DevicePath;
}

/** Every cloud-only request refused with `refusal(what)`, nothing sent: for a path without the cloud. */
export function withoutCloud(refusal: (what: CloudOnlyKind) => Error): CloudOnlyControl {
  const refuse = (what: CloudOnlyKind) => async (): Promise<never> => {
    throw refusal(what);
  };
  return {
    evChargers: {
      send: refuse("EV chargers"),
      read: refuse("EV chargers"),
      status: refuse("EV chargers"),
    },
    snapshots: {
      take: refuse("snapshots"),
      restore: refuse("snapshots"),
      delete: refuse("snapshots"),
      exists: refuse("snapshots"),
    },
    presetProfiles: {
      apply: refuse("preset profiles"),
      create: refuse("preset profiles"),
      update: refuse("preset profiles"),
      delete: refuse("preset profiles"),
      list: refuse("preset profiles"),
    },
    notifications: { send: refuse("notifications") },
    smartDevices: { addData: refuse("smart devices") },
  };
}

/** The kinds of request only the cloud carries, as a refusal names them. */
export type CloudOnlyKind = "EV chargers" | "snapshots" | "preset profiles" | "notifications" | "smart devices";
