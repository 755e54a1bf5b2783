import type { Registers } from "./bank.js";
import { BAMS_SUMMARY, isBcu } from "./battery.js";

/** The kinds of device the dongle's chain holds, as the public register maps tell them apart. */
export type Model =
  | "Hybrid Gen1"
  | "Hybrid Gen2"
  | "Hybrid Gen3"
  | "Hybrid Gen4"
  | "HV Hybrid Gen3"
  | "AC-coupled"
  | "All-in-One"
  | "Three-phase hybrid"
  | "Three-phase AC-coupled"
  | "Gateway"
  | "EMS"
  | "Polar"
  | "Unknown";

/** Which register map decodes the controller at 0x11. */
export type Family = "single-phase" | "three-phase" | "gateway" | "ems" | "unknown";

export interface Detected {
  readonly model: Model;
  readonly family: Family;
  /** How the model was found: the identity register HR 0, or (without it) the banks the device answered. */
  readonly from: "identity" | "banks";
  /** HR 0 as four hex digits, when read. */
  readonly deviceType?: string;
  readonly armFirmware?: number;
}

const FAMILY: Readonly<Record<Model, Family>> = {
  "Hybrid Gen1": "single-phase",
  "Hybrid Gen2": "single-phase",
  "Hybrid Gen3": "single-phase",
  "Hybrid Gen4": "single-phase",
  "HV Hybrid Gen3": "single-phase",
  "AC-coupled": "single-phase",
  "All-in-One": "single-phase",
  Polar: "single-phase",
  "Three-phase hybrid": "three-phase",
  "Three-phase AC-coupled": "three-phase",
  Gateway: "gateway",
  EMS: "ems",
  Unknown: "unknown",
};

/**
 * The model from the device type code (HR 0) and the ARM firmware (HR 21), as the public maps
 * give it: the first hex digit is the family (2 hybrid, 3 AC, 4 three-phase hybrid, 5 EMS,
 * 6 three-phase AC, 7 gateway, 8 HV single-phase and All-in-One); a hybrid's generation comes
 * from the firmware's hundreds (3xx Gen3, 8xx and 9xx Gen2, else Gen1); 0x81 is the HV hybrid
 * Gen3, 0x83 the Gen4, 0x80 and 0x82 the All-in-One.
 */
export function modelFromIdentity(deviceType: number, armFirmware: number | undefined): Model {
  const hex = deviceType.toString(16).padStart(4, "0");
  const prefix = hex.slice(0, 2);
  switch (hex[0]) {
    case "2": {
      if (prefix === "21") return "Polar";
      const century = Math.floor((armFirmware ?? 0) / 100);
      return century === 3 ? "Hybrid Gen3" : century === 8 || century === 9 ? "Hybrid Gen2" : "Hybrid Gen1";
    }
    case "3":
      return "AC-coupled";
    case "4":
      return "Three-phase hybrid";
    case "5":
      return "EMS";
    case "6":
      return "Three-phase AC-coupled";
    case "7":
      return "Gateway";
    case "8":
      return prefix === "81" ? "HV Hybrid Gen3" : prefix === "83" ? "Hybrid Gen4" : "All-in-One";
    default:
      return "Unknown";
  }
}

export interface ChainView {
  /** The controller's registers (address 0x11, else 0x31). */
  readonly controller: Registers;
  /** Device addresses that answered. */
  readonly addresses: ReadonlySet<number>;
}

/**
 * Detects the controller's model: from HR 0 when it was read, else from the banks that only one
 * kind of device fills (the EMS rollup at IR 2040, the gateway's at IR 1600, the three-phase
 * banks at IR 1000, an HV battery's BCU at 0x70 behind a single-phase inverter). Of the single-phase
 * HV plants only the All-in-One answers a BAMS summary at 0xA0 (the captured one does, the captured
 * HV Gen3 has a BCU and BMUs but none): with a BCU and that BAMS it is an All-in-One, with the BCU
 * alone an HV hybrid Gen3.
 */
export function detectModel(chain: ChainView): Detected {
  const deviceType = chain.controller.holding.u16(0);
  const armFirmware = chain.controller.holding.u16(21);
  if (deviceType !== undefined && deviceType !== 0) {
    const model = modelFromIdentity(deviceType, armFirmware);
    return {
      model,
      family: FAMILY[model],
      from: "identity",
      deviceType: deviceType.toString(16).padStart(4, "0"),
      ...(armFirmware === undefined ? {} : { armFirmware }),
    };
  }
  const byBanks = (model: Model): Detected => ({ model, family: FAMILY[model], from: "banks" });
  const ir = chain.controller;
  if (ir.nonZero(2040, 20)) return byBanks("EMS");
  if (ir.nonZero(1600, 20)) return byBanks("Gateway");
  if (ir.nonZero(1000, 60)) return byBanks("Three-phase hybrid");
  const hasBcu = [...chain.addresses].some(isBcu);
  if (hasBcu && chain.addresses.has(BAMS_SUMMARY) && ir.nonZero(0, 60)) return byBanks("All-in-One");
  if (hasBcu && ir.nonZero(0, 60)) return byBanks("HV Hybrid Gen3");
  // A single-phase LV inverter: which one (Gen1, Gen2, AC-coupled...) only HR 0 and HR 21 tell, so
  // its live bank and packs are read, and no setting is offered until the identity bank answers.
  if (ir.nonZero(0, 60)) return { model: "Unknown", family: "single-phase", from: "banks" };
  return byBanks("Unknown");
}
