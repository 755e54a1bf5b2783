import { type CallOptions, type CloudClient, CloudError, ForbiddenError, NotFoundError } from "../../../cloud/index.js";
import type { Inventory } from "../../../telemetry/index.js";
import { firstPage } from "../../index.js";

/**
 * What `check` asks the cloud to learn which scopes the token holds: one read per scope that a
 * read can reveal. The API has no way to list a token's scopes, so a 403 is the answer.
 */
export interface ScopeProbe {
  readonly scope: string;
  /** What the scope gives, as the summary lists it under "works". */
  readonly gives: string;
  /** energy2mqtt is of no use without it. */
  readonly needed: boolean;
  /** What the user loses without it. */
  readonly cost: string;
  /** Scopes the probe's endpoint needs as well: without them this one cannot be told apart. */
  readonly alsoNeeds?: readonly string[];
  /** The read; undefined when the account has nothing to read it on (no charger, no inverter). */
  readonly read: (client: CloudClient, inventory: Inventory, call: CallOptions) => Promise<unknown> | undefined;
}

/** Scopes only a change could test: the summary names them and what fails without them. */
export const UNCHECKED_SCOPES: readonly { readonly scope: string; readonly cost: string }[] = [
  {
    scope: "api:snapshot:write",
    cost: "snapshot take fails (a rule's snapshot action, the bridge's snapshot/take); the rules' restores need none",
  },
  { scope: "api:snapshot:delete", cost: "the bridge's snapshot/delete fails" },
  { scope: "api:inverter:control:profile:manage", cost: "the preset-profile create, update and delete actions fail" },
  { scope: "api:notification:send", cost: "the rules' notify action fails" },
];

const controllable = (inventory: Inventory) =>
  inventory.inverters.find((inverter) => inverter.controllable && !inverter.emsSerial) ?? inventory.inverters[0];

export const SCOPE_PROBES: readonly ScopeProbe[] = [
  {
    scope: "api:inverter:list",
    gives: "the device lists",
    needed: true,
    cost: "no inverter, battery or EMS is found, so there is nothing to publish",
    read: (client, _inventory, call) => firstPage(client.communicationDevices.list(call)),
  },
  {
    scope: "api:inverter:data",
    gives: "live inverter and meter data",
    needed: true,
    cost: "no live power, battery or energy figures, and no history",
    read: (client, inventory, call) => {
      const inverter = inventory.inverters[0];
      return inverter && client.inverterData.systemDataLatest(inverter.serial, call);
    },
  },
  {
    scope: "api:inverter:read",
    gives: "EMS data",
    needed: false,
    cost: "the EMS plant's figures are missing",
    read: (client, inventory, call) => {
      const ems = inventory.ems[0];
      return ems && client.ems.systemDataLatest(ems.serial, call);
    },
  },
  {
    scope: "api:inverter:control",
    gives: "inverter settings and presets",
    needed: false,
    cost: "Home Assistant gets no inverter controls and the tariff rules cannot change anything",
    read: (client, inventory, call) => {
      const inverter = controllable(inventory);
      return inverter && client.inverterControl.settings(inverter.serial, call);
    },
  },
  {
    scope: "api:snapshot:read",
    gives: "snapshots",
    needed: false,
    alsoNeeds: ["api:inverter:control"],
    cost: "snapshot exists and restore fail (a rule's snapshot action, the bridge's); the rules' restores need none",
    read: (client, inventory, call) => {
      const inverter = controllable(inventory);
      return inverter && client.snapshots.exists(inverter.serial, "energy2mqtt-check", call);
    },
  },
  {
    scope: "api:inverter:control:profile:list",
    gives: "preset profiles",
    needed: false,
    cost: "the preset-profile actions fail",
    read: (client, inventory, call) => {
      const inverter = controllable(inventory);
      return inverter && client.presetProfiles.list(inverter.serial, {}, call);
    },
  },
  {
    scope: "api:ev-charger:data",
    gives: "EV charging sessions and meter data",
    needed: false,
    cost: "no charging sessions or charger energy, and no charger history",
    read: (client, inventory, call) => {
      const charger = inventory.evChargers[0];
      return charger && firstPage(client.evChargers.chargingSessions(charger.uuid, {}, call));
    },
  },
  {
    scope: "api:ev-charger:control",
    gives: "EV charger commands",
    needed: false,
    cost: "Home Assistant gets no charger controls and the rules cannot start or stop charging",
    read: (client, inventory, call) => {
      const charger = inventory.evChargers[0];
      return charger && client.evChargers.commands(charger.uuid, call);
    },
  },
  {
    scope: "api:smart-device:list",
    gives: "smart devices",
    needed: false,
    cost: "smart plugs are not found",
    read: (client, _inventory, call) => firstPage(client.smartDevices.list(call)),
  },
  {
    scope: "api:smart-device:data",
    gives: "smart device data",
    needed: false,
    cost: "no smart plug power or energy",
    read: (client, inventory, call) => {
      const device = inventory.smartDevices[0];
      return device && firstPage(client.smartDevices.data(device.uuid, call));
    },
  },
  {
    scope: "api:site:list",
    gives: "sites",
    needed: false,
    cost: "the time zone comes from the account alone",
    read: (client, _inventory, call) => firstPage(client.sites.list(call)),
  },
];

export interface ScopeReport {
  readonly works: readonly ScopeProbe[];
  readonly missing: readonly ScopeProbe[];
  /** Not probed: the account has nothing to read it on, or the read needs a scope found missing. */
  readonly notApplicable: readonly ScopeProbe[];
  /** Probed, but the cloud failed otherwise (5xx, timeout): unknown. */
  readonly failed: readonly { readonly probe: ScopeProbe; readonly message: string }[];
}

/** Runs every probe; a 404 means the scope was allowed (there was nothing there). */
export async function probeScopes(client: CloudClient, inventory: Inventory): Promise<ScopeReport> {
  const call: CallOptions = { priority: "live" };
  const works: ScopeProbe[] = [];
  const missing: ScopeProbe[] = [];
  const notApplicable: ScopeProbe[] = [];
  const failed: { probe: ScopeProbe; message: string }[] = [];
  for (const probe of SCOPE_PROBES) {
    const blocked = probe.alsoNeeds?.some((scope) => missing.some((m) => m.scope === scope)) ?? false;
    const read = blocked ? undefined : probe.read(client, inventory, call);
    if (read === undefined) {
      notApplicable.push(probe);
      continue;
    }
    try {
      await read;
      works.push(probe);
    } catch (error) {
      if (error instanceof ForbiddenError) missing.push(probe);
      else if (error instanceof NotFoundError) works.push(probe);
      else if (error instanceof CloudError) failed.push({ probe, message: error.message });
      else throw error;
    }
  }
  return { works, missing, notApplicable, failed };
}
