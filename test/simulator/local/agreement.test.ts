import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloudOnlyKeys } from "../../../scripts/lan-gaps.js";
import type { CloudClient } from "../../../src/cloud/client.js";
import type { StateValues } from "../../../src/homeassistant/entities/types.js";
import type { State } from "../../../src/local/registers/bank.js";
import type { SimDongle } from "../../../src/simulator/local/dongle.js";
import { counterValuesOf, emsValuesOf, liveValuesOf } from "../../../src/sources/cloud/readings.js";
import { localInventory } from "../../../src/sources/local/inventory.js";
import { startTestSimulator } from "../../helpers/simulator.js";
import { decodeDongle } from "./read-dongle.js";

/*
 * The simulator serves the same house over both paths: for every built-in scenario, each
 * dongle's registers (read over TCP with src/local/session.ts and decoded with src/local/decode.ts)
 * against the cloud's answers for the same device at the same pinned instant, under the daemon's
 * state keys (the cloud's through the daemon's own patches).
 */

const START = Date.UTC(2025, 5, 15, 11, 0, 0);
const SCENARIOS = ["demo", "hybrid", "ac-coupled", "aio", "gateway", "three-phase", "plant-ems"] as const;

/** Within the simulator's rounding: energies are 0.01 kWh in the cloud, 0.1 kWh in a register. */
function tolerance(key: string, family: string): number {
  // Over the LAN today's consumption is balanced from five counters, each to 0.1 kWh.
  if (key === "today_consumption_energy" && family !== "Gateway" && family !== "Three-phase hybrid") return 0.25 + 1e-9;
  if (key.endsWith("_energy")) return 0.05 + 1e-9;
  // The gateway's charge level is its All-in-Ones' plain mean of whole percents; the cloud's the
  // capacity-weighted mean of the exact ones.
  if (family === "gateway" && key === "battery_soc") return 1;
  return 1e-9;
}

/**
 * Keys only the registers carry, by device family. `clock` is the device's own (HR 35-40): the
 * cloud's system data has no field for it. What only the cloud carries is
 * scripts/lan-gaps.ts, the table docs/entities.md shows. An inverter's active faults (HR 223-224
 * and IR 57 on a single-phase one, IR 1300-1307 on a three-phase one) are the cloud's fault
 * events, not its live data: both paths' are compared in test/app/inverter-faults.test.ts.
 */
const ONLY_LOCAL: Record<string, readonly string[]> = {
  // The cloud lists one array of the hybrid's strings; its registers hold two. Pack figures the
  // cloud lists on the device listing's battery modules, not in live data. A single-phase
  // inverter's battery calibration stage is HR 29; the cloud shows none. Its battery's nominal Ah
  // (HR 55) is the cloud's device listing's; both paths give its kWh as battery_capacity.
  "Hybrid Gen1": [
    "device_type",
    "arm_firmware",
    "battery_capacity_ah",
    "clock",
    "faults",
    "calibration",
    "solar_array_2_power",
    "solar_array_2_voltage",
    "solar_array_2_current",
    "battery_1_capacity",
    "battery_1_design_capacity",
    "battery_1_cycle_count",
  ],
  // An AC-coupled unit's own PV input (IR 17-20, 0: it has none) is not the site's solar, which
  // the cloud reports through its generation meter; only GivTCP's names read it.
  "AC-coupled": [
    "device_type",
    "arm_firmware",
    "battery_capacity_ah",
    "clock",
    "faults",
    "calibration",
    "pv_input_power",
    "today_pv_input_energy",
    "battery_1_capacity",
    "battery_1_design_capacity",
    "battery_1_cycle_count",
  ],
  // The All-in-One's PV shows on its array registers; the cloud lists no strings for it.
  "All-in-One": [
    "device_type",
    "arm_firmware",
    "battery_capacity_ah",
    "clock",
    "faults",
    "calibration",
    "solar_array_1_power",
    "solar_array_1_voltage",
    "solar_array_1_current",
    "solar_array_2_power",
    "solar_array_2_voltage",
    "solar_array_2_current",
  ],
  "Three-phase hybrid": [
    "device_type",
    "arm_firmware",
    "clock",
    "faults",
    "solar_array_2_power",
    "solar_array_2_voltage",
    "solar_array_2_current",
  ],
  EMS: ["device_type", "arm_firmware", "clock"],
  // The gateway keeps its All-in-Ones' counters, which the cloud shows as null; its firmware,
  // work mode, clock and the All-in-Ones' slots are its registers' own.
  Gateway: [
    "device_type",
    "arm_firmware",
    "clock",
    "firmware",
    "work_mode",
    "aio_count",
    "aio_1_serial",
    "aio_1_soc",
    "aio_1_power",
    "aio_2_serial",
    "aio_2_soc",
    "aio_2_power",
    "today_solar_energy",
    "today_grid_import_energy",
    "today_grid_export_energy",
    "today_battery_charge_energy",
    "today_battery_discharge_energy",
    "today_consumption_energy",
    "total_solar_energy",
    "total_grid_import_energy",
    "total_grid_export_energy",
    "total_battery_charge_energy",
    "total_battery_discharge_energy",
    "total_consumption_energy",
  ],
};

/** The cloud's answers for this dongle's device, under the daemon's keys, nulls left out. */
async function cloudState(client: CloudClient, dongle: SimDongle): Promise<StateValues> {
  const serial = dongle.chain.deviceSerial;
  const values: StateValues =
    dongle.chain.kind === "ems"
      ? emsValuesOf(await client.ems.systemDataLatest(serial))
      : {
          ...liveValuesOf(await client.inverterData.systemDataLatest(serial)),
          ...counterValuesOf(await client.inverterData.meterDataLatest(serial)),
        };
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null && value !== undefined));
}

interface Comparison {
  readonly model: string;
  readonly disagreements: string[];
  readonly onlyCloud: string[];
  readonly onlyLocal: string[];
  readonly compared: number;
}

function compare(model: string, cloud: StateValues, local: State): Comparison {
  const disagreements: string[] = [];
  let compared = 0;
  for (const [key, cloudValue] of Object.entries(cloud)) {
    const localValue = local[key];
    if (localValue === undefined) continue;
    compared++;
    if (typeof cloudValue === "number" && typeof localValue === "number") {
      if (Math.abs(cloudValue - localValue) > tolerance(key, model))
        disagreements.push(`${key}: cloud ${cloudValue}, local ${localValue}`);
    } else if (String(cloudValue).toUpperCase() !== String(localValue).toUpperCase()) {
      // The cloud's live status reads "Normal" where the registers' code reads NORMAL.
      disagreements.push(`${key}: cloud ${String(cloudValue)}, local ${String(localValue)}`);
    }
  }
  return {
    model,
    disagreements,
    onlyCloud: Object.keys(cloud)
      .filter((key) => !(key in local))
      .sort(),
    onlyLocal: Object.keys(local)
      .filter((key) => !(key in cloud))
      .sort(),
    compared,
  };
}

describe.each(SCENARIOS)("scenario %s: every dongle's registers agree with the cloud at the same instant", (name) => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  beforeAll(async () => {
    sim = await startTestSimulator({
      scenario: name,
      speed: 0,
      start: START,
      localPort: 0,
      localResponseDelayMs: 0,
    });
  });
  afterAll(async () => {
    await sim.stop();
  });

  it("one dongle per inverter, EMS and gateway, each on its own port on 127.0.0.1", () => {
    const world = sim.simulator.world;
    expect(sim.simulator.dongles).toHaveLength(world.inverters.size + world.ems.size + world.gateways.size);
    const ports = new Set(sim.simulator.dongles.map((dongle) => dongle.port));
    expect(ports.size).toBe(sim.simulator.dongles.length);
    expect(sim.simulator.local?.dongles.every((dongle) => dongle.port > 0)).toBe(true);
  });

  it("field by field, within the simulator's rounding; the fields only one path carries are the listed ones", async () => {
    const client = sim.clientFor("owner");
    const now = sim.simulator.clock.now();
    for (const dongle of sim.simulator.local?.dongles ?? []) {
      const devices = await decodeDongle(dongle);
      const controller = devices.find(
        (device) => device.serial === dongle.chain.deviceSerial && device.kind === dongle.chain.kind,
      );
      expect(controller, `${dongle.chain.deviceSerial} decoded from its dongle`).toBeDefined();
      if (!controller) continue;
      expect(controller.model).toBe(dongle.chain.model);
      const result = compare(controller.model, await cloudState(client, dongle), controller.state);
      const label = `${name} ${dongle.chain.deviceSerial} (${controller.model})`;
      expect(result.disagreements, label).toEqual([]);
      expect(result.compared, label).toBeGreaterThan(5);
      expect(result.onlyCloud, `${label}: only the cloud carries`).toEqual([...cloudOnlyKeys(controller.model)].sort());
      expect(result.onlyLocal, `${label}: only the registers carry`).toEqual(
        [...(ONLY_LOCAL[controller.model] ?? [])].sort(),
      );
    }
    // Nothing moved the simulator's clock: both paths read one instant.
    expect(sim.simulator.clock.now()).toBe(now);
  });

  it("the LV packs on the bus carry the capacities and cycles of the device listing's battery modules", async () => {
    const listing = await sim.clientFor("owner").communicationDevices.list().all();
    const lvDongles = (sim.simulator.local?.dongles ?? []).filter((dongle) =>
      dongle.chain.devices.some((device) => device.address >= 0x32 && device.address <= 0x37),
    );
    for (const dongle of lvDongles) {
      const modules =
        listing.find((device) => device.inverter?.serial === dongle.chain.deviceSerial)?.inverter?.connections
          ?.batteries ?? [];
      const packs = (await decodeDongle(dongle)).filter((device) => device.model === "LV battery");
      expect(packs.length, dongle.chain.deviceSerial).toBe(modules.length);
      packs.forEach((pack, index) => {
        const module = modules[index];
        expect(pack.state).toMatchObject({
          capacity: module?.capacity?.full,
          design_capacity: module?.capacity?.design,
          ...(module?.cycle_count === undefined ? {} : { cycle_count: module.cycle_count }),
        });
      });
    }
    expect(lvDongles.length > 0).toBe(["demo", "hybrid", "ac-coupled", "plant-ems"].includes(name));
  });

  it("the meters on the bus measure into the house: the grid meter the inverse of the cloud's export-positive grid", async () => {
    const client = sim.clientFor("owner");
    let meters = 0;
    for (const dongle of sim.simulator.local?.dongles ?? []) {
      const expected = dongle.chain.devices.filter((device) => device.address >= 0x01 && device.address <= 0x08);
      if (expected.length === 0) continue;
      const label = `${name} ${dongle.chain.deviceSerial}`;
      const cloud = await cloudState(client, dongle);
      const found = (await decodeDongle(dongle)).filter((device) => device.kind === "meter");
      expect(
        found.map((meter) => meter.address),
        label,
      ).toEqual(expected.map((device) => `0x${device.address.toString(16).padStart(2, "0")}`));
      meters += found.length;
      const power = (address: string): unknown => found.find((meter) => meter.address === address)?.state.power;
      if (dongle.chain.kind === "ems") {
        // Slot n is the meter at 0x0n: a grid meter reads the cloud's export-positive power negated, a generation meter as it is.
        for (let number = 1; number <= found.length; number++) {
          const cloudPower = cloud[`meter_${number}_power`] as number;
          const intoHouse = cloud[`meter_${number}_type`] === "GRID" ? -cloudPower : cloudPower;
          expect(power(`0x0${number}`), `${label} meter ${number}`).toBe(intoHouse || 0);
        }
      } else if (dongle.chain.kind === "gateway") {
        const balance =
          (cloud.solar_power as number) + (cloud.battery_power as number) - (cloud.consumption_power as number);
        expect(power("0x01"), label).toBe(-balance || 0);
      } else {
        expect(power("0x01"), label).toBe(-(cloud.grid_power as number) || 0);
        expect(found[0]?.state, label).toMatchObject({ voltage: cloud.grid_voltage, frequency: cloud.grid_frequency });
      }
    }
    expect(meters > 0, name).toBe(name !== "aio");
  });

  it("the HV stack on the bus is the device listing's battery module: count, cells, capacity, charge level", async () => {
    const listing = await sim.clientFor("owner").communicationDevices.list().all();
    const hvDongles = (sim.simulator.local?.dongles ?? []).filter((dongle) =>
      dongle.chain.devices.some((device) => device.address === 0x70),
    );
    for (const dongle of hvDongles) {
      const label = dongle.chain.deviceSerial;
      const modules =
        listing.find((device) => device.inverter?.serial === label)?.inverter?.connections?.batteries ?? [];
      const devices = await decodeDongle(dongle);
      // The inventory the LAN source builds from this bus (only the model is read from the detection).
      const detected = { model: dongle.chain.model, family: "single-phase", from: "identity" } as const;
      const identified = { dongleSerial: dongle.chain.dongleSerial, detected, devices, roundTripMs: 0 };
      const [inverter] = localInventory([{ index: 0, identified }], "UTC").inverters;
      const bmus = devices.filter((device) => device.model === "HV battery module (BMU)");
      // The same modules, numbered alike, with the same design capacity, on both paths; the cells
      // where the bus has BMUs (a pack of cells no whole number of 24-cell BMUs makes has none).
      expect(
        inverter?.batteries.map((module) => [module.module_number, module.capacity?.design]),
        label,
      ).toEqual(modules.map((module) => [module.module_number, module.capacity?.design]));
      const cells = modules[0]?.cell_count ?? 0;
      // Every simulated HV stack is whole 24-cell modules, as the captured plants' are (4 x 24 in
      // the All-in-One, 6 x 24 in the three-phase).
      expect(cells % 24, label).toBe(0);
      expect(inverter?.batteries[0]?.cell_count, label).toBe(cells);
      // Only the cloud has the full capacity (no register the public maps or the captures give carries it).
      expect(inverter?.batteries[0]?.capacity?.full, label).toBeNull();
      expect(modules[0]?.capacity?.full, label).toEqual(expect.any(Number));
      const bcu = devices.find((device) => device.address === "0x70");
      const controller = devices.find((device) => device.address === "0x11");
      expect(bcu?.state.soc, label).toBe(Math.round(Number(controller?.state.battery_soc)));
      // Only the LAN has the BMUs behind that one module: 24 cells each, adding up to the stack.
      expect(
        bmus.map((bmu) => bmu.address),
        label,
      ).toEqual(Array.from({ length: cells / 24 }, (_, index) => `0x${(0x50 + index).toString(16)}`));
      expect(
        bmus.every((bmu) => bmu.state.cell_count === 24),
        label,
      ).toBe(true);
      const sum = bmus.reduce((total, bmu) => total + Number(bmu.state.voltage), 0);
      expect(Math.abs(sum - Number(bcu?.state.voltage)), label).toBeLessThan(0.05);
      expect(devices.find((device) => device.address === "0xa0")?.state, label).toMatchObject({
        modules: bmus.length,
        cell_count: cells,
      });
      // The three-phase plant's BAMS also answers at 0x90 with the stack's voltage and current, as captured.
      const cluster = devices.find((device) => device.address === "0x90");
      if (dongle.chain.model === "Three-phase hybrid") {
        expect(cells, label).toBe(144);
        expect(cluster?.state, label).toEqual({ voltage: bcu?.state.voltage, current: bcu?.state.current });
      } else {
        expect(cluster, label).toBeUndefined();
      }
    }
    expect(hvDongles.length > 0).toBe(["aio", "gateway", "three-phase"].includes(name));
  });
});

describe("the EMS's powers on the LAN carry the cloud's signs", () => {
  // Noon on 20 July in the plant-ems scenario: the plant exports while its batteries charge.
  const NOON = Date.UTC(2025, 6, 20, 12, 0, 0);
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  beforeAll(async () => {
    sim = await startTestSimulator({
      scenario: "plant-ems",
      speed: 0,
      start: NOON,
      localPort: 0,
      localResponseDelayMs: 0,
    });
  });
  afterAll(async () => {
    await sim.stop();
  });

  it("grid export positive and battery charge negative, equal on both paths, into the house positive on the wire", async () => {
    const client = sim.clientFor("owner");
    const dongle = sim.simulator.local?.dongles.find((candidate) => candidate.chain.kind === "ems");
    if (!dongle) throw new Error("no EMS dongle");
    const cloud = await cloudState(client, dongle);
    const ems = (await decodeDongle(dongle)).find((device) => device.kind === "ems");
    expect(cloud.grid_power).toBeGreaterThan(0);
    expect(cloud.battery_power).toBeLessThan(0);
    const keys = ["grid_power", "battery_power", "meter_1_power", "meter_1_type", "meter_2_power", "meter_2_type"];
    const pick = (values: Record<string, unknown>): Record<string, unknown> =>
      Object.fromEntries(keys.map((key) => [key, values[key]]));
    expect(pick(ems?.state ?? {})).toEqual(pick(cloud));
    expect(cloud.meter_1_power).toBe(cloud.grid_power);
    // The EMS keeps the grid into the house positive (as the captured one does).
    const registers = dongle.chain.registers(sim.simulator.clock.now()).get(0x11);
    expect(registers?.input.get(2089)).toBe(0x10000 - (cloud.grid_power as number));
  });
});
