import { hash01 } from "../random.js";
import type { Plant } from "./dispatch.js";
import { type PvArray, type SolarSite, solarSite } from "./solar.js";

export interface BatterySpec {
  readonly capacityWh: number;
  readonly nominalVoltage: number;
  readonly maxChargeW: number;
  readonly maxDischargeW: number;
  /** Usable share of the capacity, 0..1. */
  readonly depthOfDischarge: number;
  readonly initialSocPercent?: number;
}

export interface InverterSpec {
  readonly serial: string;
  readonly model: string;
  readonly timezone: string;
  readonly latitude: number;
  readonly longitude: number;
  /** Epoch ms. */
  readonly commissionDate: number;
  readonly pvArrays: readonly PvArray[];
  /**
   * false: the PV is on another inverter and seen through a generation meter (an AC-coupled
   * inverter, an All-In-One), so live data shows its power but no strings (`arrays: []`).
   */
  readonly pvStrings?: boolean;
  readonly battery: BatterySpec | null;
  readonly inverterMaxW: number;
  /** 3 for a three-phase inverter: the grid current is shown per phase. Defaults to 1. */
  readonly phases?: 1 | 3;
  readonly annualLoadKwh: number;
  readonly faultsPerMonth?: number;
}

/** What a day's simulation needs, derived once from the spec. */
export interface HouseContext {
  readonly seed: number;
  readonly timezone: string;
  readonly latitude: number;
  readonly commissionMs: number;
  readonly site: SolarSite;
  readonly plant: Plant;
  readonly phases: 1 | 3;
  readonly pvStrings: boolean;
  readonly annualLoadKwh: number;
  readonly faultsPerMonth: number;
  readonly initialSocWh: number;
}

export function houseContext(spec: InverterSpec, seed: number): HouseContext {
  const battery = spec.battery;
  const capacityWh = battery ? Math.max(0, battery.capacityWh) : 0;
  const depth = battery ? Math.min(1, Math.max(0, battery.depthOfDischarge)) : 1;
  const initialPercent = battery?.initialSocPercent ?? 20 + 60 * hash01(seed, "initial-soc");
  return {
    seed,
    timezone: spec.timezone,
    latitude: spec.latitude,
    commissionMs: spec.commissionDate,
    site: solarSite(spec.latitude, spec.longitude, spec.pvArrays),
    plant: {
      capacityWh,
      maxChargeW: battery ? Math.max(0, battery.maxChargeW) : 0,
      maxDischargeW: battery ? Math.max(0, battery.maxDischargeW) : 0,
      dodFloorPercent: (1 - depth) * 100,
      inverterMaxW: Math.max(0, spec.inverterMaxW),
    },
    phases: spec.phases ?? 1,
    pvStrings: spec.pvStrings ?? true,
    annualLoadKwh: Math.max(0, spec.annualLoadKwh),
    faultsPerMonth: spec.faultsPerMonth ?? 2,
    initialSocWh: (Math.min(100, Math.max(0, initialPercent)) / 100) * capacityWh,
  };
}
