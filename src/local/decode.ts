import { type BankProfile, BatteryGuard, HV_MODULE, HV_STACK, LV_PACK } from "./battery-guard.js";
import type { CapturedFrame } from "./capture.js";
import type { Frame } from "./frame.js";
import { type Bank, Registers, type State } from "./registers/bank.js";
import {
  BAMS_CLUSTER,
  BAMS_SUMMARY,
  bcuSerial,
  bmuSerial,
  decodeBamsCluster,
  decodeBamsSummary,
  decodeBcu,
  decodeBmu,
  decodeLvBattery,
  decodeMeter,
  isBcu,
  isBmu,
  isMeter,
  LV_BATTERY_ADDRESSES,
  lvBatterySerial,
} from "./registers/battery.js";
import { BATTERY_CAPACITY_REGISTER } from "./registers/battery-capacity.js";
import { decodeClock, wallText } from "./registers/clock.js";
import { decodeEms, emsChildren } from "./registers/ems.js";
import { faultState } from "./registers/faults.js";
import { decodeGateway, gatewaySlots } from "./registers/gateway.js";
import { type Detected, detectModel } from "./registers/model.js";
import { decodeSinglePhase } from "./registers/single-phase.js";
import { decodeThreePhase } from "./registers/three-phase.js";
import { threePhaseFaultState } from "./registers/three-phase-faults.js";

export type DeviceKind = "inverter" | "ems" | "gateway" | "battery" | "battery module" | "meter";

/** One device found on a dongle's chain, with its last decoded state under the daemon's keys. */
export interface DecodedDevice {
  readonly kind: DeviceKind;
  readonly serial: string;
  readonly model: string;
  /** The chain address it answered at (`0x11`), or where a rollup lists it (`0x11 slot 2`). */
  readonly address: string;
  readonly state: State;
}

export type SkipKind = "broadcast" | "zero-block" | "battery-jump" | "battery-bounds" | "error-response";

/** Which guard judges an address's IR 60-119 bank: LV packs, HV modules and HV stacks. */
function guardProfile(address: number): BankProfile | undefined {
  if ((LV_BATTERY_ADDRESSES as readonly number[]).includes(address)) return LV_PACK;
  if (isBmu(address)) return HV_MODULE;
  if (isBcu(address)) return HV_STACK;
  return undefined;
}

/** The controller at 0x11; 0x31 is the same register file on AC and Gen1 units. */
const CONTROLLER_ADDRESSES = new Set([0x11, 0x31]);
const CONTROLLER = 0x11;

class MutableBank implements Bank {
  readonly holding = new Map<number, number>();
  readonly input = new Map<number, number>();
  /** The serial the answers carried (the dongle-side device's). */
  reportedSerial = "";
}

const hex = (address: number): string => `0x${address.toString(16).padStart(2, "0")}`;

/**
 * Turns the answers on one dongle's chain into devices and their state. It keeps the registers each
 * address answered with and decodes on demand. Guards, each counted: LAN broadcasts are not
 * register data; a full block read as all zeros over registers that held values is a known
 * dropout, not a reading; a battery device's bank (LV pack, HV module, HV stack) that reads
 * outside physics or moves impossibly since its confirmed baseline is corrupt (see battery-guard.ts).
 */
export class ChainDecoder {
  private readonly banks = new Map<number, MutableBank>();
  private readonly guards = new Map<number, BatteryGuard>();
  readonly skips: Record<SkipKind, number> = {
    broadcast: 0,
    "zero-block": 0,
    "battery-jump": 0,
    "battery-bounds": 0,
    "error-response": 0,
  };
  readonly warnings: string[] = [];

  accept(frame: Frame, at?: string): void {
    if (frame.kind === "broadcast") {
      this.skips.broadcast++;
      return;
    }
    if (frame.kind === "error") {
      this.skips["error-response"]++;
      return;
    }
    if (frame.kind !== "response") return;
    if (frame.function !== 0x03 && frame.function !== 0x04) return;
    const address = CONTROLLER_ADDRESSES.has(frame.address) ? CONTROLLER : frame.address;
    const bank = this.bank(address);
    const space = frame.function === 0x03 ? bank.holding : bank.input;
    const values = frame.values.slice(0, frame.count);
    const incoming = new Map(values.map((value, index) => [frame.base + index, value] as const));

    if (values.length >= 60 && values.every((value) => value === 0)) {
      const held = values.some((_, index) => (space.get(frame.base + index) ?? 0) !== 0);
      if (held) {
        this.skips["zero-block"]++;
        return;
      }
    }
    const profile = frame.function === 0x04 ? guardProfile(frame.address) : undefined;
    if (profile && frame.base === 60 && values.length === 60) {
      let guard = this.guards.get(frame.address);
      if (!guard) {
        guard = new BatteryGuard(profile);
        this.guards.set(frame.address, guard);
      }
      const verdict = guard.judge(incoming);
      if (!verdict.accept) {
        this.skips[verdict.skip ?? "battery-jump"]++;
        this.warnings.push(`${at ?? ""} ${hex(frame.address)}: rejected: ${verdict.reasons.join(", ")}`.trim());
        return;
      }
      if (verdict.reasons.length > 0)
        this.warnings.push(`${at ?? ""} ${hex(frame.address)}: ${verdict.reasons.join(", ")}`.trim());
    }
    bank.reportedSerial = frame.deviceSerial;
    for (const [register, value] of incoming) space.set(register, value);
  }

  /**
   * Drops what one block held (a block that stopped answering): its values are no reading any
   * more, so what they decode to goes with them instead of standing still.
   */
  forget(block: { address: number; function: number; base: number; count: number }): void {
    const address = CONTROLLER_ADDRESSES.has(block.address) ? CONTROLLER : block.address;
    const bank = this.banks.get(address);
    if (!bank) return;
    const space = block.function === 0x03 ? bank.holding : bank.input;
    for (let register = block.base; register < block.base + block.count; register++) space.delete(register);
  }

  acceptAll(frames: readonly CapturedFrame[]): this {
    for (const { direction, frame, at } of frames) if (direction === "rx") this.accept(frame, at);
    return this;
  }

  /** The controller's model, detected from its identity or its banks. */
  detect(): Detected {
    return detectModel({ controller: this.registers(CONTROLLER), addresses: new Set(this.banks.keys()) });
  }

  devices(): DecodedDevice[] {
    const detected = this.detect();
    const devices: DecodedDevice[] = [];
    const controller = this.banks.get(CONTROLLER);
    const batteries = this.lvBatteries();
    if (controller) devices.push(...this.controllerDevices(controller, detected, batteries));
    devices.push(...batteries);
    for (const [address, bank] of [...this.banks].sort(([a], [b]) => a - b)) {
      const ir = new Registers(bank);
      if (isBcu(address)) {
        devices.push({
          kind: "battery",
          serial: bcuSerial(ir) ?? bank.reportedSerial,
          model: "HV battery stack (BCU)",
          address: hex(address),
          state: decodeBcu(ir),
        });
      } else if (isBmu(address) && ir.nonZero(60, 24)) {
        devices.push({
          kind: "battery module",
          serial: bmuSerial(ir) ?? bank.reportedSerial,
          model: "HV battery module (BMU)",
          address: hex(address),
          state: decodeBmu(ir),
        });
      } else if (address === BAMS_SUMMARY && ir.nonZero(61, 4)) {
        devices.push(this.bams(bank, address, "BAMS", decodeBamsSummary(ir)));
      } else if (address === BAMS_CLUSTER && ir.nonZero(78, 3)) {
        devices.push(this.bams(bank, address, "BAMS (cluster)", decodeBamsCluster(ir)));
      } else if (isMeter(address) && ir.nonZero(60, 30)) {
        devices.push({
          kind: "meter",
          serial: `${bank.reportedSerial}-meter-${address}`,
          model: "Meter",
          address: hex(address),
          state: decodeMeter(ir),
        });
      }
    }
    return devices;
  }

  private controllerDevices(
    bank: MutableBank,
    detected: Detected,
    batteries: readonly DecodedDevice[],
  ): DecodedDevice[] {
    const ir = new Registers(bank);
    const serial = ir.holding.text(13, 5) || bank.reportedSerial;
    const address = hex(CONTROLLER);
    const clock = decodeClock(ir);
    // A single-phase inverter's battery size (HR 55, read with the identity bank); its kWh is the inventory's.
    const capacityAh = detected.family === "single-phase" ? ir.holding.u16(BATTERY_CAPACITY_REGISTER) : undefined;
    const identity = {
      ...(detected.deviceType === undefined ? {} : { device_type: detected.deviceType }),
      ...(detected.armFirmware === undefined ? {} : { arm_firmware: detected.armFirmware }),
      ...(capacityAh === undefined || capacityAh === 0 ? {} : { battery_capacity_ah: capacityAh }),
      // The device's own clock (registers/clock.ts), its local wall time with no zone.
      ...(clock === undefined ? {} : { clock: wallText(clock) }),
    };
    switch (detected.family) {
      case "ems":
        return [
          { kind: "ems", serial, model: detected.model, address, state: { ...identity, ...decodeEms(ir) } },
          ...emsChildren(ir).map(
            (child): DecodedDevice => ({
              kind: "inverter",
              serial: child.serial,
              model: "EMS-managed inverter",
              address: `${address} slot ${child.number}`,
              state: {
                ...(child.status === undefined ? {} : { status: child.status }),
                ...(child.power === undefined ? {} : { inverter_power: child.power }),
                ...(child.soc === undefined ? {} : { battery_soc: child.soc }),
                ...(child.temperature === undefined ? {} : { inverter_temperature: child.temperature }),
              },
            }),
          ),
        ];
      case "gateway":
        return [
          { kind: "gateway", serial, model: detected.model, address, state: { ...identity, ...decodeGateway(ir) } },
          ...gatewaySlots(ir).map(
            (slot): DecodedDevice => ({
              kind: "inverter",
              serial: slot.serial,
              model: "All-in-One (behind the gateway)",
              address: `${address} slot ${slot.number}`,
              state: {
                ...(slot.soc === undefined ? {} : { battery_soc: slot.soc }),
                ...(slot.power === undefined ? {} : { battery_power: slot.power }),
              },
            }),
          ),
        ];
      case "three-phase":
        return [
          {
            kind: "inverter",
            serial,
            model: detected.model,
            address,
            state: { ...identity, ...decodeThreePhase(ir), ...threePhaseFaultState(ir) },
          },
        ];
      default: {
        const state: State = { ...identity, ...decodeSinglePhase(ir, detected.model), ...faultState(ir) };
        // The packs as the cloud lists them on the inverter: battery_1_capacity and so on.
        batteries.forEach((battery, index) => {
          for (const key of ["capacity", "design_capacity", "cycle_count"] as const) {
            const value = battery.state[key];
            if (value !== undefined) state[`battery_${index + 1}_${key}`] = value;
          }
        });
        return [{ kind: "inverter", serial, model: detected.model, address, state }];
      }
    }
  }

  /** The BAMS answers with the inverter's serial; its own is that and its address, as a meter's is. */
  private bams(bank: MutableBank, address: number, model: string, state: State): DecodedDevice {
    return { kind: "battery", serial: `${bank.reportedSerial}-bams-${address}`, model, address: hex(address), state };
  }

  private lvBatteries(): DecodedDevice[] {
    return LV_BATTERY_ADDRESSES.flatMap((address) => {
      const bank = this.banks.get(address);
      if (!bank) return [];
      const ir = new Registers(bank);
      const serial = lvBatterySerial(ir);
      return serial === undefined
        ? []
        : [
            {
              kind: "battery module" as const,
              serial,
              model: "LV battery",
              address: hex(address),
              state: decodeLvBattery(ir),
            },
          ];
    });
  }

  /** One address's registers (empty when it never answered). */
  registers(address: number): Registers {
    return new Registers(this.banks.get(address) ?? new MutableBank());
  }

  private bank(address: number): MutableBank {
    let bank = this.banks.get(address);
    if (!bank) {
      bank = new MutableBank();
      this.banks.set(address, bank);
    }
    return bank;
  }
}
