import { merge, type Observable } from "rxjs";
import type { ChargerControl } from "./charger-ports.js";
import type { EvChargerDevice, Inventory } from "./inventory.js";
import type { LocalSource } from "./local/source.js";
import type { Resource } from "./resource.js";

/*
 * An EV charger's own paths (not the cloud), in the order they are trusted: OCPP while the charge
 * point is connected (the charger acts on it as it does for any back end), then Modbus (local
 * control, which chargers are reported to revert). The cloud, when there is one, comes after both.
 */

/** The commands go by the first path that carries the charger (and that kind of command) now. */
export function firstCarrying(controls: readonly ChargerControl[]): ChargerControl {
  return {
    carries: (uuid, kind) => controls.some((control) => control.carries(uuid, kind)),
    status: (uuid) => controls.find((control) => control.carries(uuid))?.status(uuid),
    currentLimit: (uuid) => controls.find((control) => control.carries(uuid))?.currentLimit(uuid),
    async command(uuid, command, call) {
      const control = controls.find((one) => one.carries(uuid, command.kind));
      if (!control) return { outcome: "refused", reason: `no path of charger ${uuid}'s own carries it now` };
      return control.command(uuid, command, call);
    },
  };
}

const keyOf = (resource: Resource): string | undefined =>
  resource.of && `${resource.of.kind} ${resource.of.serial.toUpperCase()}`;

/**
 * One resource per reading of a charger, from the paths' resources in their order: each poll asks
 * the first, and the next when it fails (an OCPP charge point that is not connected fails its polls).
 */
export function firstAnswering(paths: readonly (readonly Resource[])[]): Resource[] {
  const groups = new Map<string, Resource[]>();
  const alone: Resource[] = [];
  for (const resource of paths.flat()) {
    const key = keyOf(resource);
    if (key === undefined) alone.push(resource);
    else groups.set(key, [...(groups.get(key) ?? []), resource]);
  }
  return [...[...groups.values()].map(inTurn), ...alone];
}

function inTurn(resources: readonly Resource[]): Resource {
  const [first, ...rest] = resources;
  if (!first) throw new Error("a group of no resources");
  if (rest.length === 0) return first;
  const triggers = resources.flatMap((r): Observable<unknown>[] => (r.triggers ? [r.triggers] : []));
  const periodMs = resources.find((r) => r.periodMs !== undefined)?.periodMs;
  return {
    name: resources.map((r) => r.name).join(" or "),
    ...(first.of ? { of: first.of } : {}),
    devices: first.devices,
    ...(periodMs === undefined ? {} : { periodMs }),
    ...(triggers.length > 0 ? { triggers: merge(...triggers) } : {}),
    async poll(signal) {
      let failure: unknown;
      for (const resource of resources) {
        try {
          return await resource.poll(signal);
        } catch (error) {
          signal.throwIfAborted();
          failure = error;
        }
      }
      throw failure;
    },
  };
}

/**
 * The LAN side with the chargers' own paths beside the dongles' resources (paired with the
 * inventory's chargers by serial); `chargers`, when given, are added to what it discovers: the
 * chargers of a house the cloud does not list (`source: local`).
 */
export function withChargers(
  local: LocalSource,
  options: {
    readonly chargers?: readonly EvChargerDevice[];
    readonly resources: (inventory: Inventory) => Resource[];
  },
): LocalSource {
  const { chargers } = options;
  return {
    ...local,
    get warnings() {
      return local.warnings;
    },
    discover: chargers
      ? async (discoverOptions) => {
          const inventory = await local.discover(discoverOptions);
          return { ...inventory, evChargers: [...inventory.evChargers, ...chargers] };
        }
      : (discoverOptions) => local.discover(discoverOptions),
    resources: (inventory, poll, now) => [...local.resources(inventory, poll, now), ...options.resources(inventory)],
  };
}
