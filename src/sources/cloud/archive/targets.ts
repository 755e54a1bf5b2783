import { type CallOptions, ForbiddenError, NotFoundError } from "../../../cloud/index.js";
import { dayOf } from "../../../time/index.js";
import type { Inventory } from "../../inventory.js";
import { isEms } from "../discover-inverters.js";
import type { HistorySource } from "../ports.js";

export interface ArchiveDevice {
  /** Inverter serial, or charger / smart device uuid, as the cloud spells it. */
  readonly id: string;
  /** The first local day with data: the commission date where the cloud gives one. */
  readonly since?: string;
}

/** What there is to copy: the account's devices by kind, and the zone its days are counted in. */
export interface ArchiveTargets {
  readonly timezone: string;
  readonly inverters: readonly ArchiveDevice[];
  readonly evChargers: readonly ArchiveDevice[];
  readonly smartDevices: readonly ArchiveDevice[];
  /** Device lists the token may not read (403/404), with the cloud's message. */
  readonly unavailable?: readonly { readonly what: string; readonly reason: string }[];
}

/** The daemon's inventory as archive targets (without commission dates, which the backfill does not need). */
export function targetsOf(inventory: Inventory): ArchiveTargets {
  return {
    timezone: inventory.timezone,
    inverters: inventory.inverters.map((inverter) => ({ id: inverter.serial })),
    evChargers: inventory.evChargers.map((charger) => ({ id: charger.uuid })),
    smartDevices: inventory.smartDevices.map((device) => ({ id: device.uuid })),
  };
}

/**
 * The account's devices with their commission dates, in four requests (discoverInventory also
 * reads every inverter's settings and presets, which an archive does not need). EMS plants are
 * left out: their history is their inverters'. Chargers and smart devices have no commission
 * date in the API, so they start with the account's first inverter.
 */
export async function discoverTargets(source: HistorySource, call: CallOptions): Promise<ArchiveTargets> {
  const account = await source.account.get(call);
  const timezone = account.standard_timezone ?? "UTC";
  const unavailable: { what: string; reason: string }[] = [];
  const listing = async <T>(what: string, list: Promise<T[]>): Promise<T[]> => {
    try {
      return await list;
    } catch (error) {
      if (!(error instanceof ForbiddenError || error instanceof NotFoundError)) throw error;
      unavailable.push({ what, reason: error.message });
      return [];
    }
  };
  const [devices, chargers, smart] = await Promise.all([
    listing("inverters", source.communicationDevices.list(call).all()),
    listing("EV chargers", source.evChargers.list(call).all()),
    listing("smart devices", source.smartDevices.list(call).all()),
  ]);
  const inverters = devices.flatMap((device): ArchiveDevice[] => {
    const inverter = device.inverter;
    if (!inverter || isEms(inverter)) return [];
    const commissioned = inverter.commission_date ?? device.commission_date;
    const since = commissioned ? dayOf(Date.parse(withZone(commissioned)), timezone) : undefined;
    return [since ? { id: inverter.serial, since } : { id: inverter.serial }];
  });
  const first = inverters
    .map((inverter) => inverter.since)
    .filter((since): since is string => since !== undefined)
    .sort()[0];
  const from = (id: string): ArchiveDevice => (first ? { id, since: first } : { id });
  return {
    timezone,
    inverters,
    evChargers: chargers.map((charger) => from(charger.uuid)),
    smartDevices: smart.map((device) => from(device.uuid)),
    unavailable,
  };
}

/** A bare date or zoneless datetime is read as UTC: close enough for a commission day. */
function withZone(text: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text}T00:00:00Z`;
  return /([zZ]|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text.replace(" ", "T")}Z`;
}
