import type { ControlValues } from "../control/index.js";
import type { Inventory } from "../telemetry/index.js";
import type { BatteryMode, LiveSystem } from "./api-types.js";
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
    systems.push({
      id,
      kind: "ems",
      serial: plant.serial,
      model: plant.model,
      members,
      solar: figures?.generation ?? null,
      battery: figures?.battery ?? null,
      soc: mean(members.map((member) => inverters.get(member.serial.toLowerCase())?.soc)),
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
