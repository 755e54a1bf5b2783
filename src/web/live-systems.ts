import type { ControlValues } from "../control/index.js";
import type { Inventory } from "../telemetry/index.js";
import type { BatteryMode, FlowFigures, LiveHouseFlows, LiveSystem } from "./api-types.js";
import { batteryMode, type PresetAuthors } from "./battery-mode.js";

/** One inverter's latest figures, signed as the MQTT entities. */
export interface InverterFigures {
  readonly solar: number | null;
  readonly battery: number | null;
  readonly soc: number | null;
  readonly grid: number | null;
  readonly home: number | null;
  readonly at: number;
}

/** One EMS plant's latest figures, signed as the MQTT entities. */
export interface PlantFigures {
  readonly battery: number | null;
  readonly grid: number | null;
  readonly home: number | null;
  readonly ev: number | null;
  readonly generation: number | null;
  /** Each member inverter's battery SoC as the plant reports it (inverter_1_soc, ...), in its order. */
  readonly socs: readonly (number | null)[];
  readonly at: number;
}

export interface SystemsInput {
  readonly inventory: Inventory;
  /** By lower-cased serial or uuid. */
  readonly inverters: ReadonlyMap<string, InverterFigures>;
  readonly plants: ReadonlyMap<string, PlantFigures>;
  readonly chargers: ReadonlyMap<string, number | null>;
  readonly pathOf: (id: string) => "local" | "cloud";
  readonly controls: ((serial: string) => ControlValues) | undefined;
  readonly authors: PresetAuthors;
  readonly now: number;
  readonly timeZone: string;
}

const mean = (values: readonly (number | null | undefined)[]): number | null => {
  const known = values.filter((value): value is number => typeof value === "number");
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;
};

/**
 * The flow diagrams' systems: each stand-alone inverter, then each EMS plant with its own
 * figures (its inverters are its members, not systems of their own). The account does not say
 * which system an EV charger hangs off: chargers are drawn with the first stand-alone inverter;
 * a plant draws its own car meter.
 */
export function liveSystems(input: SystemsInput): LiveSystem[] {
  const { inventory, inverters, plants, chargers } = input;
  const chargerNames = inventory.evChargers.map((charger) => charger.alias || `EV charger ${charger.serial}`);
  const chargerPower = [...chargers.values()].filter((value): value is number => value !== null);
  const mode = (serial: string): BatteryMode | null =>
    batteryMode(serial, input.controls?.(serial).presets, input.authors, input.now, input.timeZone) ?? null;
  const standalone = inventory.inverters.filter((inverter) => inverter.emsSerial === undefined);
  const systems: LiveSystem[] = standalone.map((inverter, index) => {
    const id = inverter.serial.toLowerCase();
    const figures = inverters.get(id);
    const withChargers = index === 0 && chargerNames.length > 0;
    return {
      id,
      kind: "inverter",
      serial: inverter.serial,
      model: inverter.model,
      members: [],
      solar: figures?.solar ?? null,
      battery: figures?.battery ?? null,
      soc: figures?.soc ?? null,
      grid: figures?.grid ?? null,
      home: figures?.home ?? null,
      batteries: [{ serial: inverter.serial, soc: figures?.soc ?? null }],
      ev: withChargers && chargerPower.length ? chargerPower.reduce((a, b) => a + b, 0) : null,
      evName: withChargers ? chargerNames.join(", ") : null,
      at: figures?.at ?? null,
      path: input.pathOf(id),
      mode: mode(inverter.serial),
    };
  });
  for (const plant of inventory.ems) {
    const id = plant.serial.toLowerCase();
    const figures = plants.get(id);
    const members = plant.inverterSerials.map((serial) => ({
      serial,
      model: inventory.inverters.find((inverter) => inverter.serial === serial)?.model ?? "",
    }));
    // The plant's own report first (its members are not polled on the cloud); a member's own reading else.
    const batteries = members.map(({ serial }, index) => ({
      serial,
      soc: figures?.socs[index] ?? inverters.get(serial.toLowerCase())?.soc ?? null,
    }));
    systems.push({
      id,
      kind: "ems",
      serial: plant.serial,
      model: plant.model,
      members,
      solar: figures?.generation ?? null,
      battery: figures?.battery ?? null,
      soc: mean(batteries.map((battery) => battery.soc)),
      batteries,
      grid: figures?.grid ?? null,
      home: figures?.home ?? null,
      ev: figures?.ev ?? null,
      evName: figures?.ev === null || figures?.ev === undefined ? null : "the plant's car meter",
      at: figures?.at ?? null,
      path: input.pathOf(id),
      mode: mode(plant.serial),
    });
  }
  return systems;
}

const FLOWS = ["solar", "battery", "grid", "home", "ev"] as const;

/**
 * The house: each flow the sum of the systems' that have it (null when none has), signed as they
 * are; the SoC is the batteries' mean, since their sizes are not all known.
 */
export function houseFlows(systems: readonly LiveSystem[]): LiveHouseFlows {
  const total = (name: (typeof FLOWS)[number]): number | null => {
    const known = systems.map((system) => system[name]).filter((value): value is number => value !== null);
    return known.length ? known.reduce((a, b) => a + b, 0) : null;
  };
  const figures = Object.fromEntries(FLOWS.map((name) => [name, total(name)])) as Pick<
    FlowFigures,
    (typeof FLOWS)[number]
  >;
  const read = systems.filter((system) => system.at !== null);
  const batteries = systems.flatMap((system) => system.batteries);
  const evNames = systems.map((system) => system.evName).filter((name): name is string => name !== null);
  return {
    ...figures,
    soc: mean(batteries.map((battery) => battery.soc)),
    batteries,
    evName: figures.ev === null ? null : evNames.join(", ") || null,
    systems: systems.length,
    reading: read.length,
    at: read.length ? Math.min(...read.map((system) => system.at ?? 0)) : null,
  };
}
