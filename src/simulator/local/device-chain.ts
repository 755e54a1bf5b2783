import {
  BAMS_CLUSTER,
  BAMS_SUMMARY,
  BMU_CELLS,
  BMU_TEMPERATURE_SENSORS,
  batteryCapacityKwh,
  CALIBRATION_REGISTER,
  CLOCK_FIRST,
  calibrationWord,
  controlMapOf,
  encodeBamsCluster,
  encodeBamsSummary,
  encodeBcu,
  encodeBmu,
  encodeClock,
  encodeEms,
  encodeFaults,
  encodeGateway,
  encodeIdentity,
  encodeLvBattery,
  encodeMeter,
  encodeSinglePhase,
  encodeThreePhase,
  encodeThreePhaseFaults,
  FIRST_BMU,
  GATEWAY_AIO_SLOTS,
  isClockRegister,
  type Model,
  modelFromIdentity,
  RegisterFile,
  type State,
  statusName,
} from "../../local/index.js";
import { EMS_INVERTER_STATUS, EMS_METER_STATUS, EMS_METER_TYPE, emsCodeName } from "../../vocabulary/index.js";
import { batteryModules } from "../http/routes/device-bodies.js";
import { emsSystemDataBody } from "../http/routes/ems-system-data.js";
import { KIND_PROFILES, nominalWh } from "../scenario/kinds.js";
import type { EmsRecord, GatewayRecord, InverterRecord } from "../world/world.js";
import type { DeviceClock } from "./device-clock.js";
import { type LanSettings, type LanWriteAnswer, lanSettings } from "./lan-writes.js";
import { counterState, liveState } from "./live-state.js";

/** A device's own clock on its chain, and the simulator's time it runs against. */
export interface ChainClock {
  readonly device: DeviceClock;
  readonly now: () => number;
}

/** The controller's writes: its clock registers to its clock, everything else to its settings. */
function controllerWrite(settings: LanSettings, clock: ChainClock | undefined) {
  return (address: number, register: number, word: number): LanWriteAnswer => {
    if (address !== CONTROLLER) return { ok: false, reason: `device 0x${address.toString(16)} takes no writes` };
    if (!clock || !isClockRegister(register)) return settings.write(register, word);
    const answer = clock.device.writeField(clock.now(), register - CLOCK_FIRST, word);
    return answer.ok ? { ok: true, value: word } : answer;
  };
}

/** Registers `from` to `to`, both included. */
export interface Range {
  readonly from: number;
  readonly to: number;
}

/** One device on a dongle's chain: where it answers, what it answers, and whether it is part of the battery. */
export interface ChainDevice {
  readonly address: number;
  /** The serial its answers carry. */
  readonly serial: string;
  readonly battery: boolean;
  readonly holding: readonly Range[];
  readonly input: readonly Range[];
}

/** What one simulated dongle serves: the devices on its chain, and their registers at an instant. */
export interface DongleChain {
  readonly dongleSerial: string;
  /** The controller's serial (the inverter's, the EMS's, the gateway's). */
  readonly deviceSerial: string;
  readonly kind: "inverter" | "ems" | "gateway";
  readonly model: Model;
  readonly devices: readonly ChainDevice[];
  /** Every device's registers at `now`, by chain address, read afresh from the world the cloud reads (a change made through the cloud shows at once). */
  registers(now: number): ReadonlyMap<number, RegisterFile>;
  /** A single-register write (0x06) to the device at `address`; undefined when it takes none (every write is refused). */
  write?(address: number, register: number, word: number): LanWriteAnswer;
}

/** The controller answers at 0x11 and again at 0x31 (the facade AC and Gen1 units show). */
export const CONTROLLER = 0x11;
export const CONTROLLER_FACADE = 0x31;
const FIRST_LV_PACK = 0x32;
const BCU = 0x70;
const SERIAL_LENGTH = 10;

/** Device type codes (HR 0) by kind, as `modelFromIdentity` reads them. */
const DEVICE_TYPE = {
  hybrid: 0x2001,
  "ac-coupled": 0x3001,
  "all-in-one": 0x8001,
  "three-phase": 0x4001,
  ems: 0x5001,
  gateway: 0x7001,
} as const;

/** The listing's ARM firmware for the plants (device-bodies.ts). */
const PLANT_ARM = { ems: 312, gateway: 13 } as const;

const IDENTITY: Range = { from: 0, to: 59 };
/** An EMS's plant configuration: enable, slots, targets, export limit (HR 2040-2075). */
const PLANT_HOLDING: Range = { from: 2040, to: 2075 };

export class ChainError extends Error {
  override readonly name = "ChainError";
}

function checkSerial(serial: string, what: string): string {
  if (serial.length > SERIAL_LENGTH || !/^[\x20-\x7e]+$/.test(serial))
    throw new ChainError(
      `${what} "${serial}" does not fit the local protocol's 10 ASCII characters: give it a serial of at most 10`,
    );
  return serial;
}

const FIRST_METER = 0x01;
const METER_BANK: Range = { from: 60, to: 119 };

/** Meters at 0x01 on, answering IR 60-119 with the serial of the device whose chain they are on. */
function meterDevices(count: number, serial: string): ChainDevice[] {
  return Array.from({ length: count }, (_, index) => ({
    address: FIRST_METER + index,
    serial,
    battery: false,
    holding: [],
    input: [METER_BANK],
  }));
}

/**
 * A meter's registers for a power measured positive into the house (the captured grid meters read
 * negative while exporting), at the grid's voltage and frequency.
 */
function meterFile(
  power: number,
  voltage: number | null | undefined,
  frequency: number | null | undefined,
): RegisterFile {
  const file = new RegisterFile();
  const volts = typeof voltage === "number" && voltage > 0 ? voltage : undefined;
  encodeMeter(file, {
    power: Math.round(power),
    ...(volts === undefined ? {} : { voltage: volts, current: Math.round((Math.abs(power) / volts) * 100) / 100 }),
    ...(typeof frequency === "number" ? { frequency } : {}),
  });
  return file;
}

/** The dongle serial of an inverter: its own, or for an EMS's child (which the listing files under the EMS) one made from its serial. */
export function dongleSerialOf(record: InverterRecord): string {
  return record.emsSerial !== undefined ? `W${record.serial.slice(1)}`.slice(0, SERIAL_LENGTH) : record.deviceSerial;
}

/**
 * The chain of an inverter's own dongle: the inverter at 0x11 (and 0x31), its meters at 0x01 on (as
 * many as the listing shows; the first is the grid's), its LV packs at 0x32 on or its HV stack: the
 * BCU at 0x70, its BMUs at 0x50 on and the BAMS at 0xA0, and on a three-phase plant the BAMS's
 * cluster view at 0x90 too (they answer with the inverter's serial, as in the captures).
 */
export function inverterChain(record: InverterRecord, clock?: ChainClock): DongleChain {
  const kind = record.entry.kind;
  const profile = KIND_PROFILES[kind];
  const model = modelFromIdentity(DEVICE_TYPE[kind], profile.firmware.ARM);
  const serial = checkSerial(record.serial, "inverter serial");
  const threePhase = kind === "three-phase";
  const modules = batteryModules(record);
  const lv = profile.battery.moduleKwh > 0;
  // The HV stack's BMUs: the listing's one module of 96 cells is four of 24 (as the captured All-in-One's
  // chain holds them); a pack of cells no whole number of 24-cell modules makes gets its BCU only.
  const hvCells = lv ? 0 : (modules[0]?.cell_count ?? 0);
  const bmus = hvCells > 0 && hvCells % BMU_CELLS === 0 ? hvCells / BMU_CELLS : 0;
  const bmuSerial = (index: number): string => `HX${index + 1}${record.serial.slice(3)}`.slice(0, SERIAL_LENGTH);
  const packSerial = (index: number): string => `B${index + 1}${record.serial.slice(2)}`.slice(0, SERIAL_LENGTH);
  // An EMS's child lists no meters: the plant's are on the EMS's chain.
  const meterCount = record.emsSerial !== undefined ? 0 : profile.meters;
  const devices: ChainDevice[] = [
    ...meterDevices(meterCount, serial),
    {
      address: CONTROLLER,
      serial,
      battery: false,
      holding: [IDENTITY, { from: 60, to: 359 }, ...(threePhase ? [{ from: 1080, to: 1139 }] : [])],
      input: threePhase ? [{ from: 1000, to: 1439 }] : [{ from: 0, to: 239 }],
    },
    ...(lv
      ? modules.map(
          (_, index): ChainDevice => ({
            address: FIRST_LV_PACK + index,
            serial: packSerial(index),
            battery: true,
            holding: [],
            input: [{ from: 60, to: 119 }],
          }),
        )
      : modules.length > 0
        ? [
            {
              address: BCU,
              serial: `BC${record.serial.slice(2)}`,
              battery: true,
              holding: [],
              input: [{ from: 60, to: 179 }],
            },
            ...Array.from(
              { length: bmus },
              (_, index): ChainDevice => ({
                address: FIRST_BMU + index,
                serial,
                battery: true,
                holding: [],
                input: [{ from: 60, to: 119 }],
              }),
            ),
            ...(bmus > 0
              ? [{ address: BAMS_SUMMARY, serial, battery: true, holding: [], input: [{ from: 60, to: 119 }] }]
              : []),
            ...(bmus > 0 && threePhase
              ? [{ address: BAMS_CLUSTER, serial, battery: true, holding: [], input: [{ from: 60, to: 119 }] }]
              : []),
          ]
        : []),
  ];
  // HR 55: the nominal Ah the cloud's listing gives (device-bodies' batteryInfo), on single-phase units only.
  const capacityAh =
    !threePhase && record.entry.battery_kwh > 0
      ? Math.round(nominalWh(kind, record.entry.battery_kwh) / profile.battery.nominalVoltage)
      : undefined;
  // With HR 55's capacity (a three-phase: its stack's modules), the map holds the battery power
  // limits (HR 111/112; HR 1110/1108) as the daemon's does.
  const capacityKwh = batteryCapacityKwh(model, capacityAh);
  const settings = lanSettings(
    record.control,
    controlMapOf(
      { model, armFirmware: profile.firmware.ARM },
      { ...(capacityKwh === undefined ? {} : { capacityKwh }), ...(bmus > 0 ? { hvModules: bmus } : {}) },
    ),
  );
  const registers = (now: number): Map<number, RegisterFile> => {
    record.model.advanceTo(now);
    const system = record.model.liveSystemData();
    const state: State = { ...liveState(system), ...counterState(record.model.liveMeterData()) };
    const controller = new RegisterFile();
    encodeIdentity(controller, {
      deviceType: DEVICE_TYPE[kind],
      armFirmware: profile.firmware.ARM,
      serial,
      ...(capacityAh === undefined ? {} : { batteryCapacityAh: capacityAh }),
    });
    if (threePhase) {
      encodeThreePhase(controller, state);
      // The firmware words of the fault bank IR 1300-1359 (AC DSP, DC DSP, ARM; givenergy-modbus's
      // inverter_threephase.py), which the captured GIV-3HY-11 holds: with them the bank is never
      // all zeros, so a clear of every fault is a reading, not a dropout the decoder skips.
      controller.u16(1325, profile.firmware.DSP).u16(1326, profile.firmware.DSP).u16(1327, profile.firmware.ARM);
    } else {
      // An All-in-One has no strings of its own in the cloud's answer; its PV shows on array 1.
      if (kind === "all-in-one" && state.solar_power !== undefined) state.solar_array_1_power = state.solar_power;
      encodeSinglePhase(controller, state, model);
      controller.holdingSide.u16(CALIBRATION_REGISTER, calibrationWord(record.model.calibration.stage));
    }
    settings.encodeInto(controller);
    if (clock) encodeClock(controller, clock.device.wallMs(now));
    if (threePhase) encodeThreePhaseFaults(controller, record.model.raisedFaults.active());
    else encodeFaults(controller, record.model.raisedFaults.active());
    const files = new Map<number, RegisterFile>([[CONTROLLER, controller]]);
    // The grid meter measures into the house positive: the inverse of the daemon's export positive.
    if (meterCount > 0)
      files.set(FIRST_METER, meterFile(-system.grid.power, system.grid.voltage, system.grid.frequency));
    for (let index = 1; index < meterCount; index++)
      files.set(FIRST_METER + index, meterFile(0, system.grid.voltage, system.grid.frequency));
    const soc = system.battery.percent;
    modules.forEach((module, index) => {
      const file = new RegisterFile();
      if (lv) {
        encodeLvBattery(
          file,
          {
            soc,
            voltage: Math.round(module.nominal_voltage * (0.97 + 0.06 * (soc / 100)) * 1000) / 1000,
            capacity: module.capacity.full,
            design_capacity: module.capacity.design,
            remaining_capacity: Math.round(module.capacity.full * soc) / 100,
            ...(module.cycle_count === undefined ? {} : { cycle_count: module.cycle_count }),
            ...(system.battery.temperature === null ? {} : { temperature: system.battery.temperature }),
          },
          packSerial(index),
        );
        files.set(FIRST_LV_PACK + index, file);
      } else {
        // The stack's voltage moves with its charge as an LV pack's does; its BMUs share it.
        const voltage = Math.round(module.nominal_voltage * (0.97 + 0.06 * (soc / 100)) * 10) / 10;
        const current = Math.round((system.battery.power / module.nominal_voltage) * 10) / 10;
        encodeBcu(
          file,
          {
            modules: bmus > 0 ? bmus : Math.max(1, Math.round(module.cell_count / BMU_CELLS)),
            voltage,
            current,
            soc,
            state_of_health: 100,
            design_capacity: module.capacity.design,
            remaining_capacity: Math.round(module.capacity.full * soc) / 100,
          },
          `BC${record.serial.slice(2)}`.slice(0, SERIAL_LENGTH),
        );
        files.set(BCU, file);
        for (let index = 0; index < bmus; index++) {
          const bmu = new RegisterFile();
          encodeBmu(
            bmu,
            {
              cell_count: BMU_CELLS,
              voltage: voltage / bmus,
              ...(system.battery.temperature === null ? {} : { temperature: system.battery.temperature }),
            },
            bmuSerial(index),
          );
          files.set(FIRST_BMU + index, bmu);
        }
        if (bmus > 0) {
          const bams = new RegisterFile();
          encodeBamsSummary(bams, {
            stacks: 1,
            modules: bmus,
            cell_count: hvCells,
            temperature_sensors: bmus * BMU_TEMPERATURE_SENSORS,
          });
          files.set(BAMS_SUMMARY, bams);
          if (threePhase) {
            const cluster = new RegisterFile();
            encodeBamsCluster(cluster, { voltage, current });
            files.set(BAMS_CLUSTER, cluster);
          }
        }
      }
    });
    return files;
  };
  return {
    dongleSerial: checkSerial(dongleSerialOf(record), "dongle serial"),
    deviceSerial: serial,
    kind: "inverter",
    model,
    devices,
    registers,
    write: controllerWrite(settings, clock),
  };
}

/** An EMS's own dongle: the rollup of IR 2040 on, from the same body as the cloud's /ems/{serial}/system-data/latest, and its meters at 0x01 on. */
export function emsChain(ems: EmsRecord, clock?: ChainClock): DongleChain {
  const serial = checkSerial(ems.serial, "EMS serial");
  const children = ems.inverters.map((child) => checkSerial(child.serial, "inverter serial"));
  const model = modelFromIdentity(DEVICE_TYPE.ems, PLANT_ARM.ems);
  // The plant's own slots (HR 2044-2061) are the settings the cloud serves for the EMS.
  const settings = lanSettings(ems.control, controlMapOf({ model, armFirmware: PLANT_ARM.ems }));
  const registers = (now: number): Map<number, RegisterFile> => {
    const body = emsSystemDataBody(ems, now);
    const state: State = {};
    // The body's own numbers (its type admits numeric strings, which this simulator never sends).
    const put = (key: string, value: unknown): void => {
      if (typeof value === "number" || typeof value === "string") state[key] = value;
    };
    const wh = body.battery_wh_remaining;
    put("status", typeof body.status === "number" ? statusName(body.status) : undefined);
    put("battery_power", body.battery_power);
    put("battery_energy_remaining", typeof wh === "number" ? wh / 1000 : undefined);
    put("grid_power", body.grid_power);
    put("generation_power", body.total_generation);
    put("measured_load_power", body.measured_load_power);
    put("calculated_load_power", body.calculated_load_power);
    for (const inverter of body.inverters ?? []) {
      const prefix = `inverter_${inverter.number}`;
      put(`${prefix}_power`, inverter.active_power);
      put(`${prefix}_soc`, inverter.soc);
      put(`${prefix}_temperature`, inverter.temperature);
      put(`${prefix}_status`, emsCodeName(EMS_INVERTER_STATUS, inverter.status));
    }
    for (const meter of body.meters ?? []) {
      put(`meter_${meter.number}_power`, meter.active_power);
      put(`meter_${meter.number}_status`, emsCodeName(EMS_METER_STATUS, meter.status ?? undefined));
      put(`meter_${meter.number}_type`, emsCodeName(EMS_METER_TYPE, meter.type ?? undefined));
    }
    const controller = new RegisterFile();
    encodeIdentity(controller, { deviceType: DEVICE_TYPE.ems, armFirmware: PLANT_ARM.ems, serial });
    encodeEms(controller, state, children);
    settings.encodeInto(controller);
    if (clock) encodeClock(controller, clock.device.wallMs(now));
    const files = new Map<number, RegisterFile>([[CONTROLLER, controller]]);
    // Its meters on its own chain, at their slot's address, measuring into the house positive: the
    // grid meter the inverse of the rollup's export-positive grid, a generation meter as it reads.
    // Voltage and frequency are those its first inverter sees.
    const grid = ems.inverters[0]?.model.liveSystemData().grid;
    for (const meter of body.meters ?? []) {
      const power = typeof meter.active_power === "number" ? meter.active_power : 0;
      const intoHouse = meter.type === 0 ? -power : power;
      files.set(FIRST_METER + meter.number - 1, meterFile(intoHouse, grid?.voltage, grid?.frequency));
    }
    return files;
  };
  return {
    dongleSerial: serial,
    deviceSerial: serial,
    kind: "ems",
    model,
    devices: [
      ...meterDevices(ems.meterCount, serial),
      {
        address: CONTROLLER,
        serial,
        battery: false,
        holding: [IDENTITY, PLANT_HOLDING],
        input: [{ from: 2040, to: 2099 }],
      },
    ],
    registers,
    write: controllerWrite(settings, clock),
  };
}

/**
 * A gateway's dongle: the rollup of IR 1600-1859 from the plant the cloud serves (its powers) and
 * its All-in-Ones' counters added up, which the gateway keeps though the cloud shows none; its
 * meters at 0x01 on; its own settings in HR 0-359 (the ones the cloud serves for it, as GivTCP
 * reads and writes them on a gateway: registers/controls.ts) and its clock in HR 35-40.
 */
export function gatewayChain(gateway: GatewayRecord, clock?: ChainClock): DongleChain {
  const serial = checkSerial(gateway.serial, "gateway serial");
  const digits = String(gateway.dongle.firmware_version).replace(/\D/g, "").padStart(4, "0").slice(-4);
  const slots = gateway.inverters.slice(0, GATEWAY_AIO_SLOTS);
  const model = modelFromIdentity(DEVICE_TYPE.gateway, PLANT_ARM.gateway);
  const settings = lanSettings(
    gateway.control,
    controlMapOf({ model, armFirmware: PLANT_ARM.gateway }, { aioCount: gateway.inverters.length }),
  );
  const registers = (now: number): Map<number, RegisterFile> => {
    gateway.model.advanceTo(now);
    const system = gateway.model.liveSystemData();
    const counters = counterState(gateway.model.liveCounters());
    const state: State = {
      ...counters,
      firmware: `GAAA${digits}`,
      work_mode: "ON_GRID",
      grid_voltage: system.grid.voltage,
      grid_current: system.grid.current,
      solar_power: system.solar.power,
      consumption_power: system.consumption,
      battery_power: system.battery.power,
      aio_count: gateway.inverters.length,
    };
    slots.forEach((child, index) => {
      const own = child.model.liveSystemData();
      state[`aio_${index + 1}_serial`] = checkSerial(child.serial, "All-in-One serial");
      state[`aio_${index + 1}_soc`] = own.battery.percent;
      state[`aio_${index + 1}_power`] = own.battery.power;
    });
    const controller = new RegisterFile();
    encodeIdentity(controller, { deviceType: DEVICE_TYPE.gateway, armFirmware: PLANT_ARM.gateway, serial });
    encodeGateway(controller, state);
    settings.encodeInto(controller);
    if (clock) encodeClock(controller, clock.device.wallMs(now));
    const files = new Map<number, RegisterFile>([[CONTROLLER, controller]]);
    // Its meters: the first the grid's, which the cloud does not report for a gateway; the
    // simulator takes the plant's balance (solar and battery in, the home out), into the house positive.
    const balance = (system.solar.power ?? 0) + (system.battery.power ?? 0) - (system.consumption ?? 0);
    for (let index = 0; index < gateway.meterCount; index++) {
      files.set(FIRST_METER + index, meterFile(index === 0 ? -balance : 0, system.grid.voltage, system.grid.frequency));
    }
    return files;
  };
  return {
    dongleSerial: checkSerial(gateway.dongle.serial, "gateway dongle serial"),
    deviceSerial: serial,
    kind: "gateway",
    model,
    devices: [
      ...meterDevices(gateway.meterCount, serial),
      {
        address: CONTROLLER,
        serial,
        battery: false,
        holding: [IDENTITY, { from: 60, to: 359 }],
        input: [{ from: 1600, to: 1859 }],
      },
    ],
    registers,
    write: controllerWrite(settings, clock),
  };
}
