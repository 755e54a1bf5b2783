import type { BatteryBody, EnergyTotalsBody, GridBody, InverterPowerBody, SolarBody } from "../house/bodies.js";
import type { DataPointBody, SystemDataBody } from "./inverter-data.js";

/** One child's powers at an instant, read back from what the cloud shows of it. */
export interface ChildPowers {
  readonly solarW: number;
  readonly gridW: number;
  readonly gridV: number;
  readonly gridHz: number;
  readonly batteryW: number;
  readonly socPercent: number;
  readonly inverterW: number;
  readonly loadW: number;
  /** Nominal battery capacity, to weight the plant's state of charge. */
  readonly capacityWh: number;
}

const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

interface PowerParts {
  solar: SolarBody;
  grid: GridBody;
  battery: BatteryBody;
  inverter: InverterPowerBody;
}

function powersOf(parts: PowerParts, loadW: number, capacityWh: number): ChildPowers {
  return {
    solarW: parts.solar.power,
    gridW: parts.grid.power,
    gridV: parts.grid.voltage,
    gridHz: parts.grid.frequency,
    batteryW: parts.battery.power,
    socPercent: parts.battery.percent,
    inverterW: parts.inverter.power,
    loadW,
    capacityWh,
  };
}

export const powersOfSystemData = (body: SystemDataBody, capacityWh: number): ChildPowers =>
  powersOf(body, body.consumption, capacityWh);

export const powersOfDataPoint = (point: DataPointBody, capacityWh: number): ChildPowers =>
  powersOf(point.power, point.power.consumption.power, capacityWh);

/**
 * The plant's live values: powers are the children's sums, the state of charge their
 * capacity-weighted mean, grid voltage and frequency their mean. A plant controller has no PV
 * strings, battery or inverter stage of its own: those values are null, as the real service
 * sends null where a device has nothing.
 */
export function plantPowerWire(children: readonly ChildPowers[]): PowerParts & { consumptionW: number } {
  const sum = (pick: (child: ChildPowers) => number): number => children.reduce((total, c) => total + pick(c), 0);
  const count = Math.max(1, children.length);
  const capacity = sum((c) => c.capacityWh);
  const voltage = sum((c) => c.gridV) / count;
  const gridW = sum((c) => c.gridW);
  return {
    solar: { power: Math.round(sum((c) => c.solarW)), arrays: [] },
    grid: {
      voltage: round(voltage, 1),
      current: voltage > 0 ? round(Math.abs(gridW) / voltage, 1) : 0,
      power: Math.round(gridW),
      frequency: round(sum((c) => c.gridHz) / count, 2),
    },
    battery: {
      percent: capacity > 0 ? Math.round(sum((c) => (c.socPercent * c.capacityWh) / capacity)) : 0,
      power: Math.round(sum((c) => c.batteryW)),
      temperature: null,
    },
    inverter: {
      temperature: null,
      power: Math.round(sum((c) => c.inverterW)),
      output_voltage: null,
      output_frequency: null,
      eps_power: null,
    },
    consumptionW: Math.round(sum((c) => c.loadW)),
  };
}

/** Energy counters summed field by field, in kWh to 2 decimals. */
export function sumEnergyTotals(all: readonly (EnergyTotalsBody | null)[]): EnergyTotalsBody {
  const total = (pick: (totals: EnergyTotalsBody) => number): number =>
    round(
      all.reduce((sum, totals) => sum + (totals ? pick(totals) : 0), 0),
      2,
    );
  return {
    solar: total((t) => t.solar),
    grid: { import: total((t) => t.grid.import), export: total((t) => t.grid.export) },
    battery: { charge: total((t) => t.battery.charge), discharge: total((t) => t.battery.discharge) },
    consumption: total((t) => t.consumption),
    ac_charge: total((t) => t.ac_charge),
  };
}
