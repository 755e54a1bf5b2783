import { filter, Subject, type Subscription } from "rxjs";
import type { CentralSystem } from "../../ocpp/index.js";
import type { DeviceId } from "../../vocabulary/device-id.js";
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
  /** Each charge point's open transaction, by its id. */
  private readonly open = new Map<string, number>();
  /** The charge point of each paired charger, by the charger's uuid (known once the inventory is). */
  private readonly byUuid = new Map<string, string>();
  private readonly idBySerial = new Map<string, DeviceId>();
  private readonly subscription: Subscription;
  /** Each charge point's news, by kind: what the resources are polled on. */
  private readonly news = new Subject<{ readonly id: string; readonly kind: Kind }>();

  constructor(
    readonly central: CentralSystem,
    private readonly chargers: readonly OcppCharger[],
  ) {
    this.subscription = central.events$.subscribe((event) => {
      if (!this.chargers.some((one) => one.id === event.id)) return;
      if (event.kind === "session") {
        if (event.session.stoppedAt === undefined) this.open.set(event.id, event.session.id);
        else if (this.open.get(event.id) === event.session.id) this.open.delete(event.id);
      }
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
      this.news.next({ id: event.id, kind: fetched.kind });
    });
  }

  /** The charger's status, meter and session over OCPP, for the chargers of the inventory a charge point is paired with. */
  resources(inventory: Inventory): Resource[] {
    return this.chargers.flatMap((pairing) => {
      const charger = inventory.evChargers.find((one) => one.serial.toUpperCase() === pairing.serial.toUpperCase());
      if (!charger) return [];
      this.byUuid.set(charger.uuid, pairing.id);
      this.idBySerial.set(charger.serial.toUpperCase(), deviceId(charger));
      const poll = (kind: Kind) => async () => {
        if (!this.central.connected(pairing.id))
          throw new OcppNotConnectedError(`charge point ${pairing.id} is not connected to the central system`);
        const fetched = this.latest.get(pairing.id)?.get(kind);
        return fetched ? { fetched: { ...fetched, uuid: charger.uuid } as Fetched } : {};
      };
      const devices = [deviceId(charger)];
      const on = (kind: Kind) => this.news.pipe(filter((news) => news.id === pairing.id && news.kind === kind));
      return [
        {
          name: `ev.status ${charger.serial} (OCPP ${pairing.id})`,
          of: { kind: "ev.status", serial: charger.serial },
          devices,
          poll: poll("ev.status"),
          // Under `source: auto` the cloud's twin sets the pace; with no cloud, the charge point's news does.
          triggers: on("ev.status"),
        },
        {
          name: `ev.meter ${charger.serial} (OCPP ${pairing.id})`,
          of: { kind: "ev.meter", serial: charger.serial },
          devices,
          poll: poll("ev.meter"),
          triggers: on("ev.meter"),
        },
        {
          name: `ev.session ${charger.serial} (OCPP ${pairing.id})`,
          of: { kind: "ev.session", serial: charger.serial },
          devices,
          poll: poll("ev.sessions"),
          triggers: on("ev.sessions"),
        },
      ] satisfies Resource[];
    });
  }

  /** The device id of a paired charger, by its serial (its path is kept by serial, its entities by uuid). */
  deviceIdOfSerial(serial: string): DeviceId | undefined {
    return this.idBySerial.get(serial.toUpperCase());
  }

  /** The charge point a charger (by uuid) is paired with. */
  chargePointOf(uuid: string): string | undefined {
    return this.byUuid.get(uuid);
  }

  /** The connector's status as the charge point last said it, if it has. */
  statusOf(id: string): string | undefined {
    const status = this.latest.get(id)?.get("ev.status");
    const said = status?.kind === "ev.status" ? status.values.status : undefined;
    return typeof said === "string" ? said : undefined;
  }

  /** The transaction under way at a charge point, if any. */
  openTransactionOf(id: string): number | undefined {
    return this.open.get(id);
  }

  close(): void {
    this.subscription.unsubscribe();
    this.news.complete();
  }
}
