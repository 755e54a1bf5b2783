import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as wait } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger, LogFeed } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import { type AuditEntry, openStore } from "../../src/store/index.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { SIM_GAP_MS, startTestSimulator } from "../helpers/simulator.js";

/*
 * The demo house on the LAN in Europe/London across the last Sunday of October 2026 (the 25th:
 * at 01:00 UTC, 02:00 BST becomes 01:00 GMT), on the simulator's manual clock, which the daemon
 * shares. The simulated inverter's clock does not change by itself at the zone's change (as a
 * real one does not since the vendor's portal stopped moving it), and it runs its timed slots by
 * its own clock. Pinned to instants and to the zone; nothing here reads the machine's date or zone.
 */

const INVERTER = "SD2024G001";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Saturday 24 October 2026, 22:00 UTC: 23:00 BST. */
const SATURDAY_NIGHT = Date.UTC(2026, 9, 24, 22, 0, 0);
/** The zone's change: Sunday 25 October 2026, 01:00 UTC. */
const CHANGE = Date.UTC(2026, 9, 25, 1, 0, 0);
/** The LAN's poll: each step of the manual clock below is one poll. */
const POLL_MS = 5 * MINUTE;
/** The clock's small step while requests go out, and how many of them follow each poll. */
const TICK_MS = 500;
const SETTLE_TICKS = 16;
/** Charging faster than this (W) is the AC charge slot running. */
const CHARGING_W = -500;

interface House {
  readonly sim: Awaited<ReturnType<typeof startTestSimulator>>;
  readonly app: App;
  readonly broker: TestBroker;
  readonly observer: Awaited<ReturnType<typeof observe>>;
  readonly base: string;
  readonly storePath: string;
  readonly dir: string;
  /** Moves the shared clock to `at` one poll at a time, letting the daemon's polls answer at each step. */
  until(at: number): Promise<void>;
  /** Asks the bridge for `action` and moves the clock in small steps until it answers (the request's writes go out on the daemon's clock). */
  ask(action: string, payload: unknown): Promise<{ status: string; data?: unknown; error?: string }>;
  /** Presses the inverter's Sync clock button over MQTT and moves the clock until its result comes. */
  pressSyncClock(): Promise<{ entity: string; ok: boolean; message: string }>;
  audit(): AuditEntry[];
  logged(): string[];
  stop(): Promise<void>;
}

/** Starts the simulator (dongles open), a broker and a daemon on the LAN with `clock` configured. */
async function startHouse(
  name: string,
  options: {
    readonly start: number;
    readonly clockConfig?: Record<string, unknown>;
    /** The daemon's own clock, when it is not the simulator's (a clock that has lost its time). */
    readonly daemonClock?: SimClock;
  },
): Promise<House> {
  const broker = await startTestBroker();
  // The clock jumps a poll (5 minutes) at a time: the dongle's heartbeat, every minute, would
  // close a client whose echoes come between the jumps.
  const sim = await startTestSimulator({
    speed: 0,
    start: options.start,
    localPort: 0,
    localResponseDelayMs: 0,
    localHeartbeatMs: 24 * HOUR,
  });
  const hybrid = sim.simulator.dongles.find((dongle) => dongle.deviceSerial === INVERTER);
  if (!hybrid) throw new Error(`no dongle for ${INVERTER}`);
  const dir = mkdtempSync(join(tmpdir(), `e2m-clock-${name}-`));
  const storePath = join(dir, "e2m.db");
  const base = `e2m${process.pid}${name}`;
  const prefix = `ha${process.pid}${name}`;
  const observer = await observe(broker.url, [`${base}/#`, `${prefix}/#`]);
  const feed = new LogFeed();
  const daemonClock = options.daemonClock ?? sim.simulator.clock;
  const clocks = daemonClock === sim.simulator.clock ? [daemonClock] : [sim.simulator.clock, daemonClock];
  /** The dongle session paces its requests (250 ms apart) on the clock: it must move for a poll to finish. */
  const tick = (ms: number): void => {
    for (const clock of clocks) clock.advance(ms);
  };
  const pump = setInterval(() => tick(TICK_MS), 5);
  const app = await startApp(
    configSchema.parse({
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
      poll: { local: "5m", inventory: "24h" },
      store: { path: storePath },
      web: { enabled: false },
      log: { level: "silent" },
      source: "local",
      timezone: "Europe/London",
      local: [{ host: "127.0.0.1", port: hybrid.port, gap_ms: SIM_GAP_MS }],
      ...(options.clockConfig ? { clock: options.clockConfig } : {}),
    }),
    // Warnings reach the feed (bridge/logging) though nothing is printed.
    createLogger(process.env.E2M_TEST_LOG ?? "info", {
      destination: process.env.E2M_TEST_LOG ? process.stdout : { write: () => true },
      feed,
    }),
    "0.0.0-test",
    { clock: daemonClock, feed },
  );
  clearInterval(pump);
  /** After a poll is due: small steps, so that its requests (and a clock sync's) go out, each after its gap. */
  const settle = async (): Promise<void> => {
    for (let round = 0; round < SETTLE_TICKS; round++) {
      tick(TICK_MS);
      await wait(4);
    }
  };
  return {
    sim,
    app,
    broker,
    observer,
    base,
    storePath,
    dir,
    async until(at) {
      while (sim.simulator.clock.now() < at) {
        tick(Math.min(POLL_MS - SETTLE_TICKS * TICK_MS, at - sim.simulator.clock.now()));
        await settle();
      }
    },
    async ask(action, payload) {
      const topic = `${base}/bridge/response/${action}`;
      const before = observer.messages.filter((m) => m.topic === topic).length;
      await observer.publish(`${base}/bridge/request/${action}`, JSON.stringify(payload));
      for (let round = 0; round < 40; round++) {
        const answers = observer.messages.filter((m) => m.topic === topic);
        const answer = answers[before];
        if (answer) return JSON.parse(answer.payload) as { status: string; data?: unknown; error?: string };
        await settle();
      }
      throw new Error(`no answer on ${topic}`);
    },
    async pressSyncClock() {
      const device = INVERTER.toLowerCase();
      const topic = `${base}/${device}/result`;
      const before = observer.messages.filter((m) => m.topic === topic).length;
      await observer.publish(`${base}/${device}/set/sync_clock`, "PRESS");
      for (let round = 0; round < 40; round++) {
        const answer = observer.messages.filter((m) => m.topic === topic)[before];
        if (answer) return JSON.parse(answer.payload) as { entity: string; ok: boolean; message: string };
        await settle();
      }
      throw new Error(`no answer on ${topic}`);
    },
    audit() {
      const reader = openStore(storePath);
      try {
        return reader.audit.recent({ target: INVERTER, limit: 1000 });
      } finally {
        reader.close();
      }
    },
    logged: () =>
      observer.messages
        .filter((m) => m.topic === `${base}/bridge/logging`)
        .map((m) => String((JSON.parse(m.payload) as { message?: unknown }).message)),
    async stop() {
      await app.stop();
      await observer.close();
      await sim.stop();
      await broker.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const clockSyncs = (house: House): AuditEntry[] => house.audit().filter((entry) => entry.action === "clock:sync");

/** What the inverter's own clock shows, from the simulator's admin endpoint. */
async function inverterClock(house: House): Promise<{ shows: string; drift_s: number }> {
  const answer = (await house.sim.admin(`/clocks/${INVERTER}`, undefined, "GET")) as {
    data: { shows: string; drift_s: number };
  };
  return answer.data;
}

/** The inverter's battery power now, W (negative: charging), as the simulated house runs it. */
function batteryW(house: House): number {
  const record = house.sim.simulator.world.inverters.get(INVERTER);
  if (!record) throw new Error(`no inverter ${INVERTER} in the world`);
  return record.model.batteryPowerW();
}

/** AC charge slot 1 from 01:00 to 04:00, to 100 %, on the inverter itself; its battery low enough to charge. */
function setChargeSlot(house: House): void {
  const control = house.sim.simulator.world.inverters.get(INVERTER)?.control;
  if (!control) throw new Error(`no inverter ${INVERTER} in the world`);
  for (const [id, value] of [
    [64, "01:00"],
    [65, "04:00"],
    [101, 100],
    [66, true],
    [17, false],
  ] as const)
    expect(control.write(id, value)).toMatchObject({ success: true });
}

describe("clock: {sync: auto} (the default on the LAN) across the October change in Europe/London", () => {
  let house: House;
  /** Whether the charge slot ran, at instants on both sides of the change. */
  const charging = new Map<string, boolean>();

  beforeAll(async () => {
    house = await startHouse("auto", { start: SATURDAY_NIGHT });
    setChargeSlot(house);
    const at = async (label: string, instant: number): Promise<void> => {
      await house.until(instant);
      charging.set(label, batteryW(house) < CHARGING_W);
    };
    // Saturday night into Sunday, on summer time: 00:30 BST no slot, 01:30 BST the slot.
    await at("sunday 00:30 BST", Date.UTC(2026, 9, 24, 23, 30));
    await at("sunday 01:30 BST", Date.UTC(2026, 9, 25, 0, 30));
    // Sunday night into Monday, on winter time: 00:30 GMT no slot, 01:30 GMT the slot.
    await at("monday 00:30 GMT", Date.UTC(2026, 9, 26, 0, 30));
    await at("monday 01:30 GMT", Date.UTC(2026, 9, 26, 1, 30));
  }, 240_000);

  afterAll(async () => {
    await house?.stop();
  });

  it("moves the inverter's clock once, at the zone's change, audited as a clock sync", async () => {
    const syncs = clockSyncs(house);
    expect(syncs).toHaveLength(1);
    const [sync] = syncs;
    expect(sync).toMatchObject({ ok: true, verified: true, source: "daemon", targetKind: "inverter" });
    expect(sync?.request).toMatchObject({ reason: "zone-change", time_zone: "Europe/London" });
    // An hour, within the registers' whole second.
    const asked = sync?.request as { drift_s?: unknown } | undefined;
    expect(Math.abs(Number(asked?.drift_s) - 3600)).toBeLessThanOrEqual(1);
    // At the first poll after the change, and no later than the next.
    expect(sync?.at).toBeGreaterThanOrEqual(CHANGE);
    expect(sync?.at).toBeLessThanOrEqual(CHANGE + 2 * POLL_MS);
    // Nothing else was written: the clock's six registers, by the sync, and no setting.
    expect(house.audit().filter((entry) => entry.action !== "clock:sync")).toEqual([]);
    const lanWrites = (await house.sim.admin(`/dongles/${INVERTER}`, undefined, "GET")) as {
      data: { writes: { register: number; outcome: string }[] };
    };
    expect(lanWrites.data.writes.map((write) => write.register)).toEqual([35, 36, 37, 38, 39, 40]);
    // Whole seconds, written one register after another: the clock lands within a second.
    expect(Math.abs((await inverterClock(house)).drift_s)).toBeLessThanOrEqual(1);
  });

  it("runs the 01:00-04:00 charge slot from 01:00 local on both sides of the change", () => {
    expect(Object.fromEntries(charging)).toEqual({
      "sunday 00:30 BST": false,
      "sunday 01:30 BST": true,
      "monday 00:30 GMT": false,
      "monday 01:30 GMT": true,
    });
  });

  it("publishes the clock's drift, within a second of 0 once set, with its Home Assistant sensor (diagnostic, s, duration)", async () => {
    const state = house.observer.latest.get(`${house.base}/${INVERTER.toLowerCase()}`);
    // The registers hold whole seconds: within one of the daemon's clock.
    const drift = (JSON.parse(state?.payload ?? "{}") as { clock_drift?: unknown }).clock_drift;
    expect(typeof drift === "number" && Math.abs(drift) <= 1).toBe(true);
    const config = house.observer.messages.find(
      (m) => m.topic.endsWith(`/sensor/${INVERTER.toLowerCase()}/clock_drift/config`) && m.payload !== "",
    );
    expect(JSON.parse(config?.payload ?? "{}")).toMatchObject({
      device_class: "duration",
      unit_of_measurement: "s",
      entity_category: "diagnostic",
    });
  });
});

describe("clock: {sync: warn} across the same change", () => {
  let house: House;

  beforeAll(async () => {
    house = await startHouse("warn", { start: SATURDAY_NIGHT, clockConfig: { sync: "warn" } });
    await house.until(CHANGE + 3 * POLL_MS);
  }, 120_000);

  afterAll(async () => {
    await house?.stop();
  });

  it("writes nothing: no audit row, no LAN write, the inverter still on summer time", async () => {
    expect(house.audit()).toEqual([]);
    const lanWrites = (await house.sim.admin(`/dongles/${INVERTER}`, undefined, "GET")) as {
      data: { writes: unknown[] };
    };
    expect(lanWrites.data.writes).toEqual([]);
    expect((await inverterClock(house)).drift_s).toBe(3600);
  });

  it("warns once on bridge/logging, and raises the Clock problem entity", async () => {
    const warnings = house.logged().filter((message) => message.includes(`the clock of ${INVERTER}`));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      `the clock of ${INVERTER} is 1 h ahead of the house's time: its timed slots run at the wrong time. Set it on the inverter, or set clock: {sync: auto}`,
    );
    const state = house.observer.latest.get(`${house.base}/${INVERTER.toLowerCase()}`);
    const published = JSON.parse(state?.payload ?? "{}") as { clock_drift?: unknown; clock_problem?: unknown };
    expect(published.clock_problem).toBe("ON");
    expect(Math.abs(Number(published.clock_drift) - 3600)).toBeLessThanOrEqual(1);
    const config = house.observer.messages.find(
      (m) => m.topic.endsWith(`/binary_sensor/${INVERTER.toLowerCase()}/clock_problem/config`) && m.payload !== "",
    );
    expect(JSON.parse(config?.payload ?? "{}")).toMatchObject({ device_class: "problem" });
  });
});

describe("a 90 s drift, with clock: {sync: auto}", () => {
  let house: House;
  /** A Tuesday in November, far from any change of the zone's offset. */
  const START = Date.UTC(2026, 10, 17, 10, 0, 0);

  beforeAll(async () => {
    house = await startHouse("drift", { start: START });
    await house.until(START + 2 * POLL_MS);
    await house.sim.admin(`/clocks/${INVERTER}`, { drift_s: 90 });
    // Six hours of polls at 5 minutes, with the clock read every 10: dozens of readings.
    await house.until(START + 6 * HOUR);
  }, 120_000);

  afterAll(async () => {
    await house?.stop();
  });

  it("is corrected once, not at every poll", async () => {
    const syncs = clockSyncs(house);
    expect(syncs).toHaveLength(1);
    expect(syncs[0]).toMatchObject({ ok: true, verified: true });
    expect(syncs[0]?.request).toMatchObject({ reason: "drift" });
    const asked = syncs[0]?.request as { drift_s?: unknown } | undefined;
    expect(Math.abs(Number(asked?.drift_s) - 90)).toBeLessThanOrEqual(1);
    // Set to the second it was written in.
    expect(Math.abs((await inverterClock(house)).drift_s)).toBeLessThanOrEqual(1);
  });
  it("is set again when bridge/request/clock/sync asks, through the gate, audited as asked", async () => {
    const answer = await house.ask("clock/sync", { serial: INVERTER });
    expect(answer).toMatchObject({ status: "ok", data: { ok: true, verified: true } });
    const syncs = clockSyncs(house);
    expect(syncs).toHaveLength(2);
    expect(syncs.find((entry) => (entry.request as { reason?: unknown }).reason === "asked")).toMatchObject({
      ok: true,
      source: "bridge",
    });
  });
  it("is set again when the Sync clock button is pressed: through the gate, audited, answered on the result topic", async () => {
    await house.sim.admin(`/clocks/${INVERTER}`, { drift_s: -45 });
    expect((await inverterClock(house)).drift_s).toBe(-45);
    const before = clockSyncs(house).length;
    const result = await house.pressSyncClock();
    expect(result).toMatchObject({ entity: "sync_clock", ok: true });
    expect(result.message).toContain(`set the clock of ${INVERTER} to the house's time`);
    const syncs = clockSyncs(house);
    expect(syncs).toHaveLength(before + 1);
    expect(syncs[0]).toMatchObject({ ok: true, verified: true, source: "mqtt", requesterName: "sync_clock" });
    expect(syncs[0]?.request).toMatchObject({ reason: "asked", time_zone: "Europe/London" });
    expect(Math.abs((await inverterClock(house)).drift_s)).toBeLessThanOrEqual(1);
  });
  it("announces the button as a config button on the inverter, with its command topic", () => {
    const device = INVERTER.toLowerCase();
    const config = house.observer.messages.find(
      (m) => m.topic.endsWith(`/button/${device}/sync_clock/config`) && m.payload !== "",
    );
    expect(JSON.parse(config?.payload ?? "{}")).toMatchObject({
      name: "Sync clock",
      entity_category: "config",
      command_topic: `${house.base}/${device}/set/sync_clock`,
    });
  });
});

describe("a daemon whose own clock has lost its time", () => {
  let house: House;
  const START = Date.UTC(2026, 10, 17, 10, 0, 0);

  beforeAll(async () => {
    // The daemon's clock starts in 2019 (a machine with no real-time clock), the house's in 2026.
    house = await startHouse("untrusted", {
      start: START,
      daemonClock: new SimClock({ speed: 0, start: Date.UTC(2019, 0, 1, 0, 0, 0) }),
    });
    await house.until(START + 3 * POLL_MS);
  }, 120_000);

  afterAll(async () => {
    await house?.stop();
  });

  it("writes nothing, and says why on bridge/logging", async () => {
    expect(clockSyncs(house)).toEqual([]);
    const lanWrites = (await house.sim.admin(`/dongles/${INVERTER}`, undefined, "GET")) as {
      data: { writes: unknown[] };
    };
    expect(lanWrites.data.writes).toEqual([]);
    const why = house.logged().filter((message) => message.includes("it is not set"));
    expect(why).toHaveLength(1);
    expect(why[0]).toContain("the daemon's own clock says 2019, before this release's year (2026)");
  });
  it("refuses bridge/request/clock/sync too, saying why, and writes nothing", async () => {
    const answer = await house.ask("clock/sync", { serial: INVERTER });
    expect(answer.status).toBe("error");
    expect(answer.error).toContain("the daemon's own clock says 2019");
    expect(clockSyncs(house)).toEqual([]);
  });
  it("answers a press of Sync clock with why, and writes nothing", async () => {
    const result = await house.pressSyncClock();
    expect(result).toMatchObject({ entity: "sync_clock", ok: false });
    expect(result.message).toContain(`not setting the clock of ${INVERTER}: the daemon's own clock says 2019`);
    expect(clockSyncs(house)).toEqual([]);
    const lanWrites = (await house.sim.admin(`/dongles/${INVERTER}`, undefined, "GET")) as {
      data: { writes: unknown[] };
    };
    expect(lanWrites.data.writes).toEqual([]);
  });
});
