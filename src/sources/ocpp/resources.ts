import type { Subscription } from "rxjs";
import type { CentralSystem } from "../../ocpp/index.js";
import type { Fetched } from "../fetched.js";
import { deviceId, type Inventory } from "../inventory.js";
import type { Resource } from "../resource.js";
import { fetchedOfOcpp } from "./readings.js";

/** A charge point the central system accepts, and the charger (by serial) it is. */
export interface OcppCharger {
  readonly id: string;
  /** The charger's serial, as the cloud lists it: what pairs the two paths (never a name). */
  readonly serial: string;
}

type Kind = "ev.status" | "ev.meter" | "ev.sessions";

export class OcppNotConnectedError extends Error {
  override readonly name = "OcppNotConnectedError";
}

/**
 * The OCPP path to the EV chargers as resources like every path's: what the charge points
 * pushed to the central system is kept, newest per kind, and each poll gives the newest. A poll
 * of a charge point that is not connected fails, which is what moves the charger to the cloud
 * under `source: auto` (its status is the live twin, like an inverter's live data).
 */
export class OcppChargers {
  private readonly latest = new Map<string, Map<Kind, Fetched>>();
  private readonly subscription: Subscription;

  constructor(
    private readonly central: CentralSystem,
    private readonly chargers: readonly OcppCharger[],
  ) {
    this.subscription = central.events$.subscribe((event) => {
      if (!this.chargers.some((one) => one.id === event.id)) return;
      // The charger's uuid is the inventory's: set when a poll hands the reading out.
      const fetched = fetchedOfOcpp(event, "");
      if (!fetched || (fetched.kind !== "ev.status" && fetched.kind !== "ev.meter" && fetched.kind !== "ev.sessions"))
        return;
      const kept = this.latest.get(event.id) ?? new Map<Kind, Fetched>();
      const before = kept.get(fetched.kind);
      // A connection's news (online) and a status keep each other's values.
      kept.set(
        fetched.kind,
        before?.kind === "ev.status" && fetched.kind === "ev.status"
          ? { ...fetched, values: { ...before.values, ...fetched.values } }
          : fetched,
      );
      this.latest.set(event.id, kept);
    });
  }

  /** The charger's status, meter and session over OCPP, for the chargers of the inventory a charge point is paired with. */
  resources(inventory: Inventory): Resource[] {
    return this.chargers.flatMap((pairing) => {
      const charger = inventory.evChargers.find((one) => one.serial.toUpperCase() === pairing.serial.toUpperCase());
      if (!charger) return [];
      const poll = (kind: Kind) => async () => {
        if (!this.central.connected(pairing.id))
          throw new OcppNotConnectedError(`charge point ${pairing.id} is not connected to the central system`);
        const fetched = this.latest.get(pairing.id)?.get(kind);
        return fetched ? { fetched: { ...fetched, uuid: charger.uuid } as Fetched } : {};
      };
      const devices = [deviceId(charger)];
      return [
        {
          name: `ev.status ${charger.serial} (OCPP ${pairing.id})`,
          of: { kind: "ev.status", serial: charger.serial },
          devices,
          poll: poll("ev.status"),
        },
        {
          name: `ev.meter ${charger.serial} (OCPP ${pairing.id})`,
          of: { kind: "ev.meter", serial: charger.serial },
          devices,
          poll: poll("ev.meter"),
        },
        {
          name: `ev.session ${charger.serial} (OCPP ${pairing.id})`,
          of: { kind: "ev.session", serial: charger.serial },
          devices,
          poll: poll("ev.sessions"),
        },
      ] satisfies Resource[];
    });
  }

  close(): void {
    this.subscription.unsubscribe();
  }
}
