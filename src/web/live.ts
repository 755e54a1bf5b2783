import type { AvailabilityReading } from "../bus/event-bus.js";
import type { DeviceState } from "../telemetry/index.js";
import { deviceId, deviceName, devicesOf, type Inventory } from "../telemetry/index.js";
import type { Clock } from "../time/index.js";
import type { LiveDevice, LivePrices, LiveSnapshot } from "./api-types.js";
import type { PresetAuthors } from "./battery-mode.js";
import { type CarTarget, type ChargerReadings, liveCar } from "./live-cars.js";
import { houseFlows, type InverterFigures, liveSystems, type PlantFigures } from "./live-systems.js";
import type { WebOptions } from "./options.js";

export type { LiveSnapshot };

const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
const sum = (values: readonly (number | null)[]): number | null =>
  values.some((value) => value !== null) ? values.reduce<number>((total, value) => total + (value ?? 0), 0) : null;

/** A plant's member batteries' SoCs as it reports them: inverter_1_soc, inverter_2_soc, ... until one is missing. */
function memberSocs(values: Readonly<Record<string, unknown>>): (number | null)[] {
  const socs: (number | null)[] = [];
  for (let n = 1; `inverter_${n}_soc` in values; n++) socs.push(num(values[`inverter_${n}_soc`]));
  return socs;
}

/** What the Now page says beside the readings: each device's path, its battery mode, the house's zone. */
export interface LiveHouse {
  readonly clock: Clock;
  readonly source?: WebOptions["source"];
  readonly timeZone?: WebOptions["timeZone"];
  readonly paths?: WebOptions["paths"];
  readonly controls?: WebOptions["controls"];
  /** Who last changed each preset. */
  readonly authors: PresetAuthors;
  readonly prices?: WebOptions["prices"];
  /** The optimise rules' cars: their targets and deadlines. */
  readonly carTargets?: () => readonly CarTarget[];
  /** Whether a car is plugged in, as the running rules track it. */
  readonly carPlugged?: () => boolean | null | undefined;
  /** The charger's own path carrying it now (OCPP, Modbus), if one does. */
  readonly chargerPath?: WebOptions["chargerPath"];
}

/** Keeps the latest reading of each device and turns them into what the Now page shows. */
export class LiveState {
  private readonly inverters = new Map<string, InverterFigures>();
  private readonly emsPlants = new Map<string, PlantFigures>();
  private readonly chargers = new Map<string, number | null>();
  private readonly chargerReadings = new Map<string, ChargerReadings>();
  private readonly faults = new Map<string, readonly string[]>();
  /** The last clock drift each device's clock was read with, s. */
  private readonly drifts = new Map<string, number>();
  /** The clock warnings standing, by device: the clock watch's words. */
  private readonly clockWarnings = new Map<string, string>();
  private readonly availability = new Map<string, { available: boolean; reason: string }>();
  private readonly updated = new Map<string, number>();
  private readonly stale = new Set<string>();
  private newest: number | null = null;

  constructor(
    private readonly inventory: () => Inventory,
    private readonly house?: LiveHouse,
  ) {}

  reading(reading: DeviceState): void {
    const id = ("serial" in reading ? reading.serial : reading.uuid).toLowerCase();
    this.updated.set(id, reading.at);
    this.newest = Math.max(this.newest ?? 0, reading.at);
    if (reading.kind === "inverter.live" || reading.kind === "ems") {
      const drift = num(reading.values.clock_drift);
      if (drift !== null) this.drifts.set(id, drift);
    }
    if (reading.kind === "inverter.live") {
      const values = reading.values;
      this.inverters.set(id, {
        solar: num(values.solar_power),
        // As the MQTT entities: battery positive discharging, grid positive exporting.
        battery: num(values.battery_power),
        soc: num(values.battery_soc),
        grid: num(values.grid_power),
        home: num(values.consumption_power),
        at: reading.at,
      });
    } else if (reading.kind === "ems") {
      const values = reading.values;
      this.emsPlants.set(id, {
        battery: num(values.battery_power),
        grid: num(values.grid_power),
        home: num(values.measured_load_power) ?? num(values.calculated_load_power),
        ev: num(values.car_power),
        generation: num(values.generation_power),
        socs: memberSocs(values),
        at: reading.at,
      });
    } else if (reading.kind === "inverter.events") {
      this.faults.set(
        id,
        [...reading.active].reverse().map((fault) => fault.name),
      );
    } else if (reading.kind === "ev.meter") {
      this.chargers.set(id, num(reading.values.power));
      this.chargerReadings.set(id, { ...this.chargerReadings.get(id), meter: reading.values });
    } else if (reading.kind === "ev.status") {
      this.chargerReadings.set(id, { ...this.chargerReadings.get(id), status: reading.values });
    } else if (reading.kind === "ev.session") {
      this.chargerReadings.set(id, { ...this.chargerReadings.get(id), session: reading.session });
    }
  }

  availabilityOf(reading: AvailabilityReading): void {
    this.availability.set(reading.device, { available: reading.available, reason: reading.reason });
  }

  /** A device's clock warning raised (with its words) or cleared (control/clock-watch.ts). */
  clockProblemOf(change: { readonly device: string; readonly problem: boolean; readonly message?: string }): void {
    if (change.problem) this.clockWarnings.set(change.device, change.message ?? "");
    else this.clockWarnings.delete(change.device);
  }

  freshnessOf(change: { readonly device: string; readonly stale: boolean }): void {
    if (change.stale) this.stale.add(change.device);
    else this.stale.delete(change.device);
  }

  /** The SoC of the first inverter that has one, for the plan. */
  soc(): number | undefined {
    for (const inverter of this.inverters.values()) if (inverter.soc !== null) return inverter.soc;
    return undefined;
  }

  snapshot(): LiveSnapshot {
    const inventory = this.inventory();
    const paths = this.house?.paths?.() ?? {};
    // Chargers and smart devices are on the cloud whatever the source; inverters and plants on their dongle with `local`.
    const pathOf = (id: string, kind = "inverter"): "local" | "cloud" =>
      paths[id]?.path ??
      (this.house?.source === "local" && (kind === "inverter" || kind === "ems") ? "local" : "cloud");
    const now = this.house?.clock.now() ?? Date.now();
    const timeZone = this.house?.timeZone?.() || inventory.timezone || "Europe/London";
    const devices = devicesOf(inventory).map((device): LiveDevice => {
      const id = deviceId(device);
      const verdict = this.availability.get(id);
      const faults = this.faults.get(id);
      const clockWarning = this.clockWarnings.get(id);
      return {
        id,
        kind: device.kind,
        name: deviceName(device),
        available: verdict?.available,
        reason: verdict?.reason ?? "",
        lastUpdate: this.updated.get(id),
        stale: this.stale.has(id),
        path: pathOf(id, device.kind),
        ...(faults === undefined ? {} : { faults }),
        ...(clockWarning === undefined
          ? {}
          : {
              clockProblem: {
                serial: "serial" in device ? device.serial : id,
                driftSeconds: this.drifts.get(id) ?? null,
                message: clockWarning,
              },
            }),
      };
    });
    const inverters = [...this.inverters.values()];
    const socs = inverters.map((i) => i.soc).filter((soc): soc is number => soc !== null);
    const plants = [...this.emsPlants.values()];
    const systems = liveSystems({
      inventory,
      inverters: this.inverters,
      plants: this.emsPlants,
      chargers: this.chargers,
      pathOf,
      controls: this.house?.controls,
      authors: this.house?.authors ?? new Map(),
      now,
      timeZone,
    });
    return {
      devices,
      flows: {
        solar: sum(inverters.map((i) => i.solar)),
        battery: sum(inverters.map((i) => i.battery)),
        soc: socs.length ? socs.reduce((a, b) => a + b, 0) / socs.length : null,
        grid: sum(inverters.map((i) => i.grid)),
        home: sum(inverters.map((i) => i.home)),
        ev: sum([...this.chargers.values()]),
        ems: sum(plants.map((p) => p.home)),
        at: this.newest,
      },
      systems,
      house: houseFlows(systems),
      prices: this.prices(now),
      cars: this.cars(inventory, pathOf),
      timeZone,
      now,
    };
  }

  private prices(now: number): LivePrices | null {
    const prices = this.house?.prices?.(now);
    if (!prices || (prices.import === undefined && prices.export === undefined)) return null;
    return { import: prices.import ?? null, export: prices.export ?? null, currency: prices.currency };
  }

  private cars(inventory: Inventory, pathOf: (id: string, kind?: string) => "local" | "cloud"): LiveSnapshot["cars"] {
    const targets = this.house?.carTargets?.() ?? [];
    return inventory.evChargers.map((charger, index) => {
      const id = charger.uuid.toLowerCase();
      const mode = this.house?.controls?.(charger.uuid).evCommands?.["change-mode"]?.active;
      const own = this.house?.chargerPath?.(charger.uuid);
      return liveCar({
        id,
        name: charger.alias || `EV charger ${charger.serial}`,
        readings: this.chargerReadings.get(id) ?? {},
        // The rules watch the first charger: their plugged-in word is that one's.
        plugged: index === 0 ? this.house?.carPlugged?.() : undefined,
        target: targets.find((target) => target.charger?.toLowerCase() === id || (!target.charger && index === 0)),
        mode: typeof mode === "string" ? mode : null,
        path: own ?? (pathOf(id, "ev_charger") === "local" ? "LAN" : "cloud"),
      });
    });
  }
}
