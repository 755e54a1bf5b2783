import { isoSeconds } from "../../time/index.js";
import type {
  BatteryBody,
  DataPointBody,
  EnergyTotalsBody,
  GridBody,
  InverterPowerBody,
  MeterDataBody,
  SolarBody,
  SystemDataBody,
} from "./bodies.js";
import { WH_PER_UNIT } from "./ledger.js";
import type { Reading } from "./reading.js";

const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};
const kwh = (units: number | undefined): number => round(((units ?? 0) * WH_PER_UNIT) / 1000, 2);

/** Counters in units of 0.01 kWh as the API's energy totals. */
export function energyTotalsWire(units: ArrayLike<number>): EnergyTotalsBody {
  return {
    solar: kwh(units[0]),
    grid: { import: kwh(units[1]), export: kwh(units[2]) },
    battery: { charge: kwh(units[3]), discharge: kwh(units[4]) },
    consumption: kwh(units[5]),
    ac_charge: kwh(units[6]),
  };
}

function solarWire(value: Reading): SolarBody {
  return {
    power: Math.round(value.pvW),
    arrays: value.arraysW.map((watts, index) => {
      const kwp = value.arrayKwp[index] ?? 1;
      const voltage = watts < 1 ? 0 : 180 + 160 * Math.min(1, watts / Math.max(1, kwp * 1000)) ** 0.3;
      return {
        array: index + 1,
        voltage: round(voltage, 1),
        current: voltage > 0 ? round(watts / voltage, 1) : 0,
        power: Math.round(watts),
      };
    }),
  };
}

function gridWire(value: Reading): GridBody {
  return {
    voltage: round(value.gridVoltage, 1),
    // Per phase: a three-phase inverter's grid power is spread over three lines.
    current: round(Math.abs(value.gridW) / value.gridVoltage / value.phases, 1),
    power: Math.round(value.gridW),
    frequency: round(value.gridFrequency, 2),
  };
}

function batteryWire(value: Reading): BatteryBody {
  return {
    percent: Math.round(value.socPercent),
    power: Math.round(value.batteryW),
    temperature: round(value.batteryTempC, 1),
  };
}

function inverterWire(value: Reading): InverterPowerBody {
  return {
    temperature: round(value.inverterTempC, 1),
    power: Math.round(value.inverterW),
    output_voltage: round(value.gridVoltage + 0.6, 1),
    output_frequency: round(value.gridFrequency, 2),
    eps_power: 0,
  };
}

export function dataPointWire(
  value: Reading,
  status: string,
  today: ArrayLike<number>,
  total: ArrayLike<number>,
): DataPointBody {
  return {
    time: isoSeconds(value.timeMs),
    status,
    power: {
      solar: solarWire(value),
      grid: gridWire(value),
      battery: batteryWire(value),
      consumption: { power: Math.round(value.loadW) },
      inverter: inverterWire(value),
    },
    today: energyTotalsWire(today),
    total: energyTotalsWire(total),
    is_metered: true,
  };
}

/** system-data/latest says "Normal" where the device listing says NORMAL. */
export function systemDataWire(value: Reading, status: string): SystemDataBody {
  return {
    time: isoSeconds(value.timeMs),
    status: status.charAt(0) + status.slice(1).toLowerCase(),
    solar: solarWire(value),
    grid: gridWire(value),
    battery: batteryWire(value),
    inverter: inverterWire(value),
    consumption: Math.round(value.loadW),
  };
}

export function meterDataWire(timeMs: number, today: ArrayLike<number>, total: ArrayLike<number>): MeterDataBody {
  return { time: isoSeconds(timeMs), today: energyTotalsWire(today), total: energyTotalsWire(total), is_metered: true };
}
