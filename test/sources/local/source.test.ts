import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entitiesFor } from "../../../src/homeassistant/entities/index.js";
import type { StateValues } from "../../../src/homeassistant/entities/types.js";
import { createLogger } from "../../../src/log/log.js";
import { counterValuesOf, emsValuesOf, liveValuesOf } from "../../../src/sources/cloud/readings.js";
import { type Inventory, type LocalSource, localSource } from "../../../src/sources/index.js";
import type { PollResult } from "../../../src/sources/resource.js";
import { VirtualClock } from "../../../src/time/virtual-clock.js";
import { freePort } from "../../helpers/broker.js";
import { DEFAULT_POLL } from "../../helpers/poll.js";
import { MIDDAY, SIM_GAP_MS, startTestSimulator } from "../../helpers/simulator.js";
import { driven, openSession, readsOf } from "../../simulator/local/read-dongle.js";

/*
 * The LAN as a DeviceSource, against the simulator's dongles on 127.0.0.1: the simulated house
 * stands still at MIDDAY (speed 0) while the sessions' own virtual clock is moved a step per turn
 * of the event loop (`driven`), so pacing and timeouts pass without a wall-clock sleep.
 */

const POLL = DEFAULT_POLL;

/** Numbers within the simulator's rounding (0.1 kWh in a register, 0.01 in the cloud), text case-blind. */
function disagreements(cloud: StateValues, local: StateValues): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(cloud)) {
    const mine = local[key];
    if (value === null || mine === null || mine === undefined) continue;
    if (typeof value === "number" && typeof mine === "number") {
      if (Math.abs(value - mine) > (key.endsWith("_energy") ? 0.05 + 1e-9 : 1e-9))
        out.push(`${key}: ${value} vs ${mine}`);
    } else if (String(value).toUpperCase() !== String(mine).toUpperCase()) out.push(`${key}: ${value} vs ${mine}`);
  }
  return out;
}

describe("the local DeviceSource on the demo house's dongles", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let clock: VirtualClock;
  let source: LocalSource;
  let inventory: Inventory;

  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: MIDDAY, localPort: 0, localResponseDelayMs: 0 });
    clock = new VirtualClock(MIDDAY);
    source = localSource({
      dongles: sim.simulator.dongles.map((dongle) => ({
        host: "127.0.0.1",
        port: dongle.port,
        passive: false,
        gap_ms: SIM_GAP_MS,
      })),
      clock,
      timezone: "Europe/London",
      timeoutMs: 2_000,
      random: () => 0,
    });
    inventory = await driven(clock, source.discover());
  }, 30_000);

  afterAll(async () => {
    source?.close();
    await sim?.stop();
  });

  it("finds every inverter and EMS the cloud lists, with the EMS's children under it", async () => {
    const cloud = await sim.clientFor("owner").communicationDevices.list().all();
    const cloudInverters = cloud.flatMap((device) => (device.inverter ? [device.inverter.serial] : []));
    expect(inventory.inverters.map((inverter) => inverter.serial).sort()).toEqual(
      ["SD2024G001", "SE2024G101", "SE2024G102"].sort(),
    );
    for (const serial of cloudInverters.filter((s) => !s.startsWith("EM")))
      expect(inventory.inverters.map((i) => i.serial)).toContain(serial);
    expect(inventory.ems).toMatchObject([
      { kind: "ems", serial: "EM2024E001", model: "EMS", inverterSerials: ["SE2024G101", "SE2024G102"] },
    ]);
    const hybrid = inventory.inverters.find((inverter) => inverter.serial === "SD2024G001");
    expect(hybrid).toMatchObject({ model: "Hybrid Gen1", dongleSerial: "WF2024D001", controllable: false });
    expect(hybrid?.emsSerial).toBeUndefined();
    for (const child of ["SE2024G101", "SE2024G102"])
      expect(inventory.inverters.find((inverter) => inverter.serial === child)?.emsSerial).toBe("EM2024E001");
  });

  it("lists the LV packs as the cloud lists the battery modules: capacities and cycles", async () => {
    const listing = await sim.clientFor("owner").communicationDevices.list().all();
    for (const inverter of inventory.inverters) {
      const modules = listing.find((device) => device.inverter?.serial === inverter.serial)?.inverter?.connections
        ?.batteries;
      if (!modules) continue;
      expect(inverter.batteries.length, inverter.serial).toBe(modules.length);
      inverter.batteries.forEach((module, index) => {
        expect(module.capacity).toEqual({
          full: modules[index]?.capacity?.full,
          design: modules[index]?.capacity?.design,
        });
        expect(module.cycle_count).toBe(modules[index]?.cycle_count ?? undefined);
      });
    }
    expect(inventory.inverters.find((i) => i.serial === "SD2024G001")?.batteries.length).toBeGreaterThan(0);
  });

  it("polls live data every 10 s into the cloud's shapes, agreeing with the cloud at the same instant", async () => {
    const client = sim.clientFor("owner");
    const resources = source.resources(inventory, POLL, () => clock.now());
    expect(resources.map((r) => [r.name.split(" (")[0], r.periodMs])).toEqual(
      expect.arrayContaining([
        ["inverter.live SD2024G001", 10_000],
        ["inverter.counters SD2024G001", 300_000],
        ["ems EM2024E001", 10_000],
      ]),
    );
    const poll = async (name: string): Promise<PollResult> => {
      const resource = resources.find((r) => r.name.startsWith(`${name} (`));
      if (!resource) throw new Error(`no resource ${name}`);
      return driven(clock, resource.poll(new AbortController().signal));
    };

    const live = (await poll("inverter.live SD2024G001")).fetched;
    expect(live?.kind).toBe("inverter.live");
    if (live?.kind !== "inverter.live") return;
    const cloudLive = liveValuesOf(await client.inverterData.systemDataLatest("SD2024G001"));
    expect(disagreements(cloudLive, live.values)).toEqual([]);
    expect(live.values.battery_power).toBe(cloudLive.battery_power);
    expect(live.values.grid_power).toBe(cloudLive.grid_power);

    const counters = (await poll("inverter.counters SD2024G001")).fetched;
    expect(counters?.kind).toBe("inverter.points");
    if (counters?.kind !== "inverter.points" || !counters.counters) throw new Error("no counters");
    expect(counters.points).toHaveLength(1);
    const mine = counters.counters;
    const theirs = counterValuesOf(await client.inverterData.meterDataLatest("SD2024G001"));
    expect(disagreements(theirs, mine)).toEqual([]);
    expect(mine.today_grid_import_energy).not.toBeNull();

    const ems = (await poll("ems EM2024E001")).fetched;
    if (ems?.kind !== "ems") throw new Error("no EMS data");
    const cloudEms = emsValuesOf(await client.ems.systemDataLatest("EM2024E001"));
    expect(disagreements(cloudEms, ems.values)).toEqual([]);
    expect(ems.values.inverter_2_soc).toBe(cloudEms.inverter_2_soc);
  });
});

describe("a dongle that does not answer at start-up", () => {
  it("does not hold the others back: discovery goes on with those that answered", async () => {
    const sim = await startTestSimulator({ speed: 0, start: MIDDAY, localPort: 0, localResponseDelayMs: 0 });
    const hybrid = sim.simulator.local?.dongles.find((one) => one.chain.deviceSerial === "SD2024G001");
    if (!hybrid) throw new Error("no dongle for SD2024G001");
    const clock = new VirtualClock(MIDDAY);
    const warnings: string[] = [];
    const logger = createLogger("warn", {
      format: "json",
      destination: { write: (line: string) => void warnings.push(line) },
    });
    const nobody = await freePort();
    const source = localSource({
      dongles: [
        { host: "127.0.0.1", port: nobody, passive: false },
        { host: "127.0.0.1", port: hybrid.port, passive: false, gap_ms: SIM_GAP_MS },
      ],
      clock,
      timezone: "Europe/London",
      timeoutMs: 2_000,
      random: () => 0,
    });
    try {
      const inventory = await driven(clock, source.discover({ logger }));
      expect(inventory.inverters.map((i) => i.serial)).toEqual(["SD2024G001"]);
      expect(warnings.join("\n")).toContain(`the dongle at 127.0.0.1:${nobody} (local[0]) did not answer`);
    } finally {
      source.close();
      await sim.stop();
    }
  }, 30_000);
});

describe("a passive dongle", () => {
  it("asks nothing and decodes the answers the dongle fans out to another client", async () => {
    const sim = await startTestSimulator({ speed: 0, start: MIDDAY, localPort: 0, localResponseDelayMs: 0 });
    const dongle = sim.simulator.local?.dongles.find((one) => one.chain.deviceSerial === "SD2024G001");
    if (!dongle) throw new Error("no dongle for SD2024G001");
    const clock = new VirtualClock(MIDDAY);
    const source = localSource({
      dongles: [{ host: "127.0.0.1", port: dongle.port, passive: true }],
      clock,
      timezone: "Europe/London",
      timeoutMs: 2_000,
      random: () => 0,
    });
    const discovering = source.discover();
    // Both clients connected before the other one asks, so the passive one hears every answer.
    while (dongle.clientCount < 1) await new Promise<void>((resolve) => setImmediate(resolve));
    const other = openSession(dongle.port);
    try {
      // Another client (a phone app, another integration) polls the dongle meanwhile.
      for (const read of readsOf(dongle)) await driven(other.clock, other.session.read(read));
      const inventory = await driven(clock, discovering);
      expect(inventory.inverters.map((i) => [i.serial, i.model])).toEqual([["SD2024G001", "Hybrid Gen1"]]);
      const [live] = source.resources(inventory, POLL, () => clock.now());
      const result = await driven(clock, live?.poll(new AbortController().signal) ?? Promise.reject());
      expect(result.fetched?.kind).toBe("inverter.live");
      // Nothing new heard since: the next poll fetches nothing rather than repeat old values.
      expect(
        (await driven(clock, live?.poll(new AbortController().signal) ?? Promise.reject())).fetched,
      ).toBeUndefined();
      const requests = dongle.stats.requests;
      expect(requests).toBe(readsOf(dongle).reduce((n, read) => n + Math.ceil(read.count / 60), 0));
    } finally {
      other.session.close();
      source.close();
      await sim.stop();
    }
  }, 30_000);
});

describe("a three-phase hybrid's dongle", () => {
  it("polls today's counters (IR 1360-1413) with the live values, so their entities are announced", async () => {
    const sim = await startTestSimulator({
      scenario: "three-phase",
      speed: 0,
      start: MIDDAY,
      localPort: 0,
      localResponseDelayMs: 0,
    });
    const clock = new VirtualClock(MIDDAY);
    const source = localSource({
      dongles: sim.simulator.dongles.map((dongle) => ({
        host: "127.0.0.1",
        port: dongle.port,
        passive: false,
        gap_ms: SIM_GAP_MS,
      })),
      clock,
      timezone: "Europe/London",
      timeoutMs: 2_000,
      random: () => 0,
    });
    try {
      const inventory = await driven(clock, source.discover());
      const inverter = inventory.inverters.find((one) => one.model === "Three-phase hybrid");
      if (!inverter) throw new Error("no three-phase inverter on the LAN");
      const resource = source
        .resources(inventory, POLL, () => clock.now())
        .find((one) => one.name.startsWith(`inverter.counters ${inverter.serial} (`));
      if (!resource) throw new Error(`no counters resource for ${inverter.serial}`);
      const counters = (await driven(clock, resource.poll(new AbortController().signal))).fetched;
      if (counters?.kind !== "inverter.points" || !counters.counters) throw new Error("no counters");
      const mine = counters.counters;
      const theirs = counterValuesOf(await sim.clientFor("owner").inverterData.meterDataLatest(inverter.serial));
      const today = ["today_solar_energy", "today_battery_charge_energy", "today_battery_discharge_energy"];
      for (const key of today) expect(mine[key], key).toBeTypeOf("number");
      expect(disagreements(theirs, mine)).toEqual([]);
      // Home Assistant is told of a counter once a reading carried it (a key with a value).
      const seenKeys = Object.keys(mine).filter((key) => mine[key] !== null);
      const announced = entitiesFor(inverter, { seenKeys }).map((entity) => entity.key);
      expect(announced).toEqual(expect.arrayContaining(today));
    } finally {
      source.close();
      await sim.stop();
    }
  }, 30_000);
});
