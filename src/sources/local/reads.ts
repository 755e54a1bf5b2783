import type { Detected, Read } from "../../local/index.js";
import { LV_BATTERY_ADDRESSES, MAX_REGISTERS } from "../../local/index.js";

/** The controller answers at 0x11; an HV stack's BCU at 0x70. */
export const CONTROLLER = 0x11;
export const BCU = 0x70;
export { LV_BATTERY_ADDRESSES };

const holding = (address: number, base: number, count: number): Read => ({ address, function: 3, base, count });
const input = (address: number, base: number, count: number): Read => ({ address, function: 4, base, count });

/** HR 0-59: the device type (HR 0), serial (HR 13-17) and firmware (HR 21) that detect the model. */
export const IDENTITY = holding(CONTROLLER, 0, 60);

const FAULT_WORDS_READ = holding(CONTROLLER, 223, 2);

/**
 * The banks that tell the model when HR 0 does not (a device that refuses or zeroes its
 * identity), one request each: the single-phase live bank, the three-phase one, the EMS's rollup
 * and the gateway's (detectModel tells the family by which of them holds values).
 */
export const DETECTION_BANKS: readonly Read[] = [
  input(CONTROLLER, 0, 60),
  input(CONTROLLER, 1000, 60),
  input(CONTROLLER, 2040, 60),
  input(CONTROLLER, 1600, 60),
];

/**
 * Whether a poll reads the controller's clock (HR 35-40, in the identity bank: the aligned block
 * every public tool asks for, rather than six registers alone): inverters, EMSs and gateways,
 * whose slots run by it (a gateway's clock is GivTCP's Invertor_Time for it; the captured one
 * holds the house's time).
 */
export const readsClock = (detected: Detected): boolean =>
  detected.family === "single-phase" ||
  detected.family === "three-phase" ||
  detected.family === "ems" ||
  detected.family === "gateway";

/** An LV pack's one bank (capacity, cycles, serial at IR 110-114). */
export const lvPackBank = (address: number): Read => input(address, 60, 60);
/** An HV stack's BCU: voltage, capacity and serial (IR 138-142). */
export const BCU_BANK = input(BCU, 60, 120);

/**
 * Models whose battery is an HV stack behind a BCU, not LV packs. The three-phase hybrid's is too
 * (its capture: a BCU at 0x70 over six modules); its battery's size is the BCU's (HR 55 reads 0).
 */
const HV_MODELS = new Set(["HV Hybrid Gen3", "All-in-One", "Hybrid Gen4", "Three-phase hybrid"]);

export function hasHvStack(detected: Detected): boolean {
  return HV_MODELS.has(detected.model);
}

/** Whether the model has LV packs on its chain (the single-phase LV hybrids and AC-coupled units). */
export function hasLvPacks(detected: Detected): boolean {
  return detected.family === "single-phase" && !hasHvStack(detected);
}

/**
 * What one live poll reads from the controller, per family: only the banks the decoders read
 * (src/local/registers/), so a poll is one to five requests.
 */
export function liveReads(detected: Detected): Read[] {
  switch (detected.family) {
    case "single-phase":
      // IR 180-183 are the battery's lifetime and daily counters on the Gen1 only.
      // HR 223-224 are the inverter's faults (registers/faults.ts).
      return detected.model === "Hybrid Gen1"
        ? [input(CONTROLLER, 0, 60), input(CONTROLLER, 180, 4), FAULT_WORDS_READ]
        : [input(CONTROLLER, 0, 60), FAULT_WORDS_READ];
    case "three-phase":
      // IR 1200-1299 hold nothing the decoder reads; the faults are IR 1300-1307, asked as the
      // aligned block the public tools read (registers/three-phase-faults.ts); the energy
      // counters are IR 1360-1413.
      return [input(CONTROLLER, 1000, 200), input(CONTROLLER, 1300, 60), input(CONTROLLER, 1360, 54)];
    case "gateway":
      return [input(CONTROLLER, 1600, 260)];
    case "ems":
      return [input(CONTROLLER, 2040, 60)];
    case "unknown":
      return [input(CONTROLLER, 0, 60)];
  }
}

/** A read in the requests the dongle takes (at most 60 registers each), so each part's health is its own. */
export function partsOf(read: Read): Read[] {
  const parts: Read[] = [];
  for (let offset = 0; offset < read.count; offset += MAX_REGISTERS)
    parts.push({ ...read, base: read.base + offset, count: Math.min(MAX_REGISTERS, read.count - offset) });
  return parts;
}
