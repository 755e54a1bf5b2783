/** Device kinds the real service lists as inverters (a gateway and an EMS are described apart). */
export const INVERTER_KINDS = ["hybrid", "ac-coupled", "all-in-one", "three-phase"] as const;
export type InverterKind = (typeof INVERTER_KINDS)[number];

/**
 * What a kind of inverter looks like in the device listing and behaves like in the house.
 * The All-In-One's figures are those of the real listing (predbat_doc_communication_device_list.json):
 * one 307.2 V pack of 96 cells, 52 Ah nominal, depth of discharge 0.85, 6 kW, no meters.
 * The model names of the other kinds are the simulator's own choice (no evidence shows them).
 * An AC-coupled inverter or All-In-One has no PV input: PV on the site is on another inverter,
 * and shows in its live data through a generation meter, with no strings.
 */
export interface KindProfile {
  /** info.model when the scenario names none. */
  readonly model: string;
  /** PV strings on the inverter's own input; without them PV is seen through a generation meter (no arrays). */
  readonly pvStrings: boolean;
  readonly maxPowerW: number;
  readonly phases: 1 | 3;
  /** Battery charge and discharge rate cap, W (info.max_charge_rate). */
  readonly maxBatteryRateW: number;
  readonly battery: {
    readonly nominalVoltage: number;
    readonly depthOfDischarge: number;
    /** Usable kWh per listed module; 0 lists the whole pack as one module. */
    readonly moduleKwh: number;
    readonly cellCount: number;
    readonly hasUsb: boolean;
    readonly firmware: number;
    /** Whether a module shows cycle_count (the reference: "some responses"). */
    readonly cycleCount: boolean;
  };
  /** Meters on the inverter's own chain (connections.meters). */
  readonly meters: number;
  readonly firmware: { readonly ARM: number; readonly DSP: number };
}

export const KIND_PROFILES: Readonly<Record<InverterKind, KindProfile>> = {
  hybrid: {
    model: "GIV-HY5.0",
    pvStrings: true,
    maxPowerW: 5000,
    phases: 1,
    maxBatteryRateW: 3600,
    battery: {
      nominalVoltage: 51.2,
      depthOfDischarge: 1,
      moduleKwh: 9.5,
      cellCount: 16,
      hasUsb: true,
      firmware: 3017,
      cycleCount: true,
    },
    meters: 1,
    firmware: { ARM: 193, DSP: 190 },
  },
  "ac-coupled": {
    model: "GIV-AC3.0",
    pvStrings: false,
    maxPowerW: 3000,
    phases: 1,
    maxBatteryRateW: 3000,
    battery: {
      nominalVoltage: 51.2,
      depthOfDischarge: 1,
      moduleKwh: 8.2,
      cellCount: 16,
      hasUsb: true,
      firmware: 3017,
      cycleCount: true,
    },
    meters: 1,
    firmware: { ARM: 193, DSP: 190 },
  },
  "all-in-one": {
    model: "All-In-One",
    pvStrings: false,
    maxPowerW: 6000,
    phases: 1,
    maxBatteryRateW: 6000,
    battery: {
      nominalVoltage: 307.2,
      depthOfDischarge: 0.85,
      moduleKwh: 0,
      cellCount: 96,
      hasUsb: false,
      firmware: 12,
      cycleCount: false,
    },
    meters: 0,
    firmware: { ARM: 616, DSP: 616 },
  },
  "three-phase": {
    model: "GIV-3HY-10.0",
    pvStrings: true,
    maxPowerW: 10_000,
    phases: 3,
    maxBatteryRateW: 10_000,
    battery: {
      // Six HV modules of 24 cells, as the captured three-phase plant's stack (its BCU reads 471.8 V).
      nominalVoltage: 460.8,
      depthOfDischarge: 0.9,
      moduleKwh: 0,
      cellCount: 144,
      hasUsb: false,
      firmware: 104,
      cycleCount: false,
    },
    meters: 1,
    firmware: { ARM: 315, DSP: 312 },
  },
};

/** Nominal (not usable) capacity in Wh of a pack giving `usableKwh` at the kind's depth of discharge. */
export function nominalWh(kind: InverterKind, usableKwh: number): number {
  return (usableKwh * 1000) / KIND_PROFILES[kind].battery.depthOfDischarge;
}
