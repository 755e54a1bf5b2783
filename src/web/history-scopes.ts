import type { Inventory } from "../telemetry/index.js";
import type { HistoryDevice, HistoryScope } from "./api-types.js";

export const HOUSE_SCOPE = "house";
const PLANT_PREFIX = "plant:";

const sumOf = (devices: readonly HistoryDevice[]): Pick<HistoryScope, "first" | "last" | "count"> => ({
  first: Math.min(...devices.map((one) => one.first)),
  last: Math.max(...devices.map((one) => one.last)),
  count: devices.reduce((sum, one) => sum + one.count, 0),
});

/**
 * What History can show: each inverter with 5-minute points; each EMS plant the inventory lists
 * with at least one of its inverters in the store (its inverters summed); and, with more than one
 * inverter, the house: every inverter in the store summed (the stand-alone ones and every plant's).
 */
export function historyScopes(devices: readonly HistoryDevice[], inventory: Inventory | undefined): HistoryScope[] {
  const bySerial = new Map(devices.map((one) => [one.device, one]));
  const plantOf = new Map(
    (inventory?.inverters ?? []).flatMap((one) => (one.emsSerial ? [[one.serial, one.emsSerial] as const] : [])),
  );
  const scopes: HistoryScope[] = devices.map((one) => {
    const plant = plantOf.get(one.device);
    return {
      id: one.device,
      kind: "inverter",
      label: plant ? `Inverter ${one.device} (of plant ${plant})` : `Inverter ${one.device}`,
      members: [one.device],
      first: one.first,
      last: one.last,
      count: one.count,
    };
  });
  for (const ems of inventory?.ems ?? []) {
    const found = ems.inverterSerials.flatMap((serial) => bySerial.get(serial) ?? []);
    if (found.length === 0) continue;
    const members = found.map((one) => one.device);
    scopes.push({
      id: `${PLANT_PREFIX}${ems.serial}`,
      kind: "plant",
      label: `Plant ${ems.serial}: ${members.join(" + ")}, summed`,
      members,
      ...sumOf(found),
    });
  }
  if (devices.length > 1)
    scopes.push({
      id: HOUSE_SCOPE,
      kind: "house",
      label: `The house: ${devices.map((one) => one.device).join(" + ")}, summed`,
      members: devices.map((one) => one.device),
      ...sumOf(devices),
    });
  return scopes;
}

/** The scope an id names; an inverter not (yet) in the store stands for itself, with no points. */
export function scopeOf(scopes: readonly HistoryScope[], id: string): HistoryScope | undefined {
  const found = scopes.find((one) => one.id === id);
  if (found) return found;
  if (id === HOUSE_SCOPE || id.startsWith(PLANT_PREFIX)) return undefined;
  return { id, kind: "inverter", label: `Inverter ${id}`, members: [id], first: 0, last: 0, count: 0 };
}

/** A scope's name alone, as the API's answers carry it. */
export const nameOf = ({ id, kind, label, members }: HistoryScope) => ({ id, kind, label, members });
