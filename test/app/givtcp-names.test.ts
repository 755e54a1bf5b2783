import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import { loadScenario } from "../../src/simulator/scenario/load.js";
import { openStore } from "../../src/store/index.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { withoutRandomFaults } from "../helpers/calm-scenario.js";
import { observe } from "../helpers/mqtt-observer.js";
import { startTestSimulator } from "../helpers/simulator.js";

/**
 * Issue 39: with `homeassistant.naming: givtcp`, every entity Predbat's GivTCP template names
 * (test/fixtures/predbat) is announced for the house's inverter, with the domain and the option
 * values the template expects, on each single-inverter scenario over the cloud and over the LAN;
 * and a command through a GivTCP-named entity reaches the control gate and is audited.
 */

const FIXTURE = join(import.meta.dirname, "../fixtures/predbat/givenergy_givtcp.entities.yaml");
const fixture = z
  .object({
    pred_bat: z.record(z.string(), z.array(z.string()).min(1)),
    commented_examples: z.record(z.string(), z.array(z.string())),
    values: z.object({ inverter_mode: z.array(z.string()), time_select_format: z.literal("HH:MM:SS") }),
  })
  .parse(parse(readFileSync(FIXTURE, "utf8")));

/** Inverter 1's entity per template key: the template's first entry, its placeholder filled in. */
function templateEntities(serial: string): Map<string, string> {
  return new Map(
    Object.entries(fixture.pred_bat).map(([key, [entity]]) => [
      key,
      (entity ?? "").replace("{geserial}", serial.toLowerCase()),
    ]),
  );
}

/**
 * Entities the template names that a house does not give on a path, each with its reason.
 * Whatever is not listed here must be announced. (The template's commented auto_restart example,
 * switch.givtcp_{geserial}_reboot_invertor, is not an entity it reads: the restart is the own
 * `setting_restart_inverter` button, a button in Home Assistant rather than GivTCP's switch.)
 */
function notGiven(scenario: string, path: "cloud" | "local"): Readonly<Record<string, string>> {
  const clock = "the cloud reports no inverter clock; the LAN reads it from the registers (clock_drift)";
  if (path === "cloud" && scenario === "gateway") {
    const today = "the gateway's cloud data carries no daily counters (its AIOs' do, under givtcp2_/givtcp3_)";
    return { inverter_time: clock, load_today: today, import_today: today, export_today: today, pv_today: today };
  }
  if (path === "cloud") return { inverter_time: clock };
  if (scenario === "gateway") {
    const controls = "over the LAN the gateway has sensors only: no control of it is mapped";
    const keys = ["charge_rate", "discharge_rate", "reserve", "inverter_mode", "charge_start_time", "charge_end_time"];
    keys.push("charge_limit", "scheduled_charge_enable", "discharge_start_time", "discharge_end_time");
    keys.push("pause_mode", "pause_start_time", "pause_end_time", "discharge_target_soc");
    return {
      ...Object.fromEntries(keys.map((key) => [key, controls])),
      soc_kw: "the battery's kWh capacity is the cloud listing's",
      soc_max: "the battery's kWh capacity is the cloud listing's",
      inverter_time: "the gateway's clock is not among its mapped registers",
    };
  }
  const absent: Record<string, string> = {};
  if (scenario === "three-phase") {
    // HR 111/112 hold a C-rate: watts need the battery's capacity, which the LAN has only from HR 55.
    const limits =
      "the battery power limits are a C-rate (HR 111/112) on single-phase models; the three-phase has no capacity over the LAN to make watts of it";
    Object.assign(absent, { charge_rate: limits, discharge_rate: limits });
    const capacity =
      "the three-phase's HR 55 reads 0 in its capture: no battery size over the LAN, only the cloud listing's";
    Object.assign(absent, { soc_kw: capacity, soc_max: capacity });
  }
  if (scenario === "ac-coupled")
    absent.load_today =
      "an AC-coupled unit has no PV counter, so today's consumption cannot be balanced from its registers; the cloud computes it";
  if (scenario === "three-phase") {
    // A hybrid has no pause registers either (HR 318-320 are in the HR 300-359 block only AC-coupled
    // units and All-in-Ones answer), but the daemon holds its pause through the battery power limits.
    const pause =
      "pause battery (HR 318-320) is not in the three-phase map, and the daemon's own pause needs the battery power limits, which the three-phase lacks over the LAN; the template marks it optional";
    Object.assign(absent, { pause_mode: pause, pause_start_time: pause, pause_end_time: pause });
  }
  // The demo's and the hybrid's target is held by the daemon (no HR 272, but power limits and its own pause).
  if (scenario === "ac-coupled")
    absent.discharge_target_soc =
      "no discharge slot SOC limit (HR 272) in the AC-coupled map, and its pause is its own registers (HR 318-320), not the daemon's held pause the discharge target rides on; the template marks it optional (gen3 only)";
  if (scenario === "three-phase")
    absent.discharge_target_soc =
      "the three-phase map has no timed export slot for a target to stop, nor the battery power limits over the LAN to pause its discharge by; the template marks it optional (gen3 only)";
  if (scenario === "ac-coupled") {
    const pv = "an AC-coupled inverter has no PV input: its registers carry no solar power (the cloud reports 0)";
    Object.assign(absent, { pv_today: pv, pv_power: pv });
  }
  if (scenario === "three-phase") {
    const slot = "the three-phase register map has no timed export, so no discharge slot to stand for GivTCP's";
    const mode = "the three-phase register map has no eco mode, timed discharge or timed export to read a mode from";
    Object.assign(absent, { discharge_start_time: slot, discharge_end_time: slot, inverter_mode: mode });
  }
  return absent;
}

/** The single-inverter houses and the inverter Predbat's geserial finds in each. */
const HOUSES = [
  { scenario: "demo", serial: "SD2024G001" },
  { scenario: "hybrid", serial: "SH2024G001" },
  { scenario: "ac-coupled", serial: "SA2024G001" },
  { scenario: "aio", serial: "CH2024A001" },
  { scenario: "three-phase", serial: "ST2024G001" },
  { scenario: "gateway", serial: "GW2024G001" },
] as const;
// plant-ems is not here: Predbat's EMS plant template (givenergy_ems.yaml) is not the GivTCP one.

type Json = Record<string, unknown>;

let broker: TestBroker;
const dir = mkdtempSync(join(tmpdir(), "e2m-givtcp-"));

beforeAll(async () => {
  broker = await startTestBroker();
});

afterAll(async () => {
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  readonly configs: Map<string, Json>;
  readonly state: Json;
  /** The device's state as last published. */
  readonly latest: () => Json;
  readonly base: string;
  readonly store: string;
  readonly stop: () => Promise<void>;
  readonly publish: (topic: string, payload: string) => Promise<Json>;
  /** The single-register writes the house's dongle received (over the LAN; none over the cloud). */
  readonly lanWrites: () => readonly { readonly register: number; readonly value: number; readonly outcome?: string }[];
}

/** A daemon with `naming: givtcp` on a frozen house; its discovery configs by default_entity_id. */
async function startRun(
  name: string,
  serial: string,
  path: "cloud" | "local",
  index: number,
  naming: "own" | "givtcp" = "givtcp",
): Promise<Run> {
  const base = `e2mgiv${process.pid}n${index}`;
  const prefix = `hagiv${process.pid}n${index}`;
  const sim = await startTestSimulator({
    scenario: withoutRandomFaults(loadScenario(name)),
    requestsPerMinute: 100_000,
    speed: 0,
    ...(path === "local" ? { localPort: 0, localResponseDelayMs: 0 } : {}),
  });
  const reach =
    path === "cloud"
      ? { cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 } }
      : { source: "local", local: sim.simulator.dongles.map((dongle) => ({ host: "127.0.0.1", port: dongle.port })) };
  const store = join(dir, `${index}.db`);
  const config = configSchema.parse({
    ...reach,
    mqtt: { url: broker.url, base_topic: base },
    homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status`, naming },
    store: { path: store },
    web: { enabled: false },
    log: { level: "silent" },
  });
  const device = serial.toLowerCase();
  const live = await observe(broker.url, [`${base}/#`, `${prefix}/#`]);
  const app = await startApp(config, createLogger(process.env.E2M_TEST_LOG ?? "silent"), "0.0.0-test", {
    clock: path === "cloud" ? sim.simulator.clock : new SimClock({ start: sim.simulator.clock.now() }),
  });
  await live.waitFor((m) => m.topic === `${base}/${device}`, 30_000);
  // The controls are read in the background after the announcement: wait until all is quiet.
  for (let count = -1; count !== live.messages.length; await new Promise((r) => setTimeout(r, 1500)))
    count = live.messages.length;
  const configs = new Map<string, Json>();
  for (const message of live.latest.values()) {
    if (!message.topic.startsWith(`${prefix}/`) || !message.topic.endsWith("/config") || message.payload === "")
      continue;
    const payload = JSON.parse(message.payload) as Json;
    configs.set(String(payload.default_entity_id), payload);
  }
  const state = JSON.parse(live.latest.get(`${base}/${device}`)?.payload ?? "{}") as Json;
  return {
    configs,
    state,
    latest: () => JSON.parse(live.latest.get(`${base}/${device}`)?.payload ?? "{}") as Json,
    base,
    store,
    lanWrites: () => sim.simulator.local?.find(serial)?.writesReceived ?? [],
    async publish(topic, payload) {
      const mark = live.messages.length;
      await live.publish(topic, payload);
      const result = await live.waitFor(
        (m) => live.messages.indexOf(m) >= mark && m.topic === `${base}/${device}/result`,
        30_000,
      );
      return JSON.parse(result.payload) as Json;
    },
    async stop() {
      await live.close();
      await app.stop();
      await sim.stop();
    },
  };
}

const RUNS = [
  ...HOUSES.map((house) => ({ ...house, path: "cloud" as const })),
  ...HOUSES.map((house) => ({ ...house, path: "local" as const })),
].map((run, index) => ({ ...run, index }));

describe.each(RUNS)("$scenario over the $path", ({ scenario, serial, path, index }) => {
  let run: Run;
  beforeAll(async () => {
    run = await startRun(scenario, serial, path, index);
  }, 90_000);
  afterAll(async () => {
    await run?.stop();
  });

  it("announces every entity Predbat's GivTCP template names, with its domain and options", () => {
    const absentHere = notGiven(scenario, path);
    const missing: string[] = [];
    const unexpected: string[] = [];
    for (const [key, entity] of templateEntities(serial)) {
      const config = run.configs.get(entity);
      if (absentHere[key] !== undefined) {
        if (config) unexpected.push(`${entity} (said to be absent: ${absentHere[key]})`);
        continue;
      }
      if (!config) {
        missing.push(`${key}: ${entity}`);
        continue;
      }
      // A distinct unique_id, so the own entity keeps its own.
      expect(String(config.unique_id)).toMatch(/_givtcp_/);
      const domain = entity.split(".")[0];
      if (domain === "select" && key === "inverter_mode") expect(config.options).toEqual(fixture.values.inverter_mode);
      else if (domain === "select" && key !== "pause_mode") {
        const options = z.array(z.string()).parse(config.options);
        expect(options).toHaveLength(24 * 60);
        for (const option of options) expect(option).toMatch(/^\d\d:\d\d:00$/);
      }
      if (domain !== "sensor") expect(config.command_topic).toEqual(expect.stringContaining(`${run.base}/`));
    }
    expect(missing).toEqual([]);
    expect(unexpected).toEqual([]);
  });

  it("keeps the daemon's own entities beside them", () => {
    const own = [...run.configs.keys()].filter((id) => id.includes(`.inverter_${serial.toLowerCase()}_`));
    expect(own.length).toBeGreaterThan(10);
    expect(run.configs.get(`sensor.inverter_${serial.toLowerCase()}_battery_soc`)).toBeDefined();
  });

  if (scenario === "hybrid" && path === "local")
    it("pauses the discharge through GivTCP's pause select (HR 112 to 0, audited), and Disabled puts it back", async () => {
      const device = serial.toLowerCase();
      const select = run.configs.get(`select.givtcp_${device}_battery_pause_mode`);
      expect(select?.options).toEqual(["Disabled", "PauseCharge", "PauseDischarge", "PauseBoth"]);
      // What Home Assistant sends for an option: the config's command_template maps GivTCP's word to the own label.
      const template = String(select?.command_template);
      const sent = (option: string) => new RegExp(`"${option}": "([^"]+)"`).exec(template)?.[1] ?? option;
      const limit = run.state.setting_battery_discharge_power;
      expect(limit).toBeGreaterThan(0);
      const mark = run.lanWrites().length;
      expect(await run.publish(String(select?.command_topic), sent("PauseDischarge"))).toMatchObject({ ok: true });
      await expect.poll(() => run.latest().givtcp_battery_pause_mode).toBe("PauseDischarge");
      const paused = run.lanWrites().slice(mark);
      expect(paused.map((write) => [write.register, write.value, write.outcome])).toEqual([[112, 0, "applied"]]);
      await expect.poll(() => run.latest().setting_battery_discharge_power).toBe(0);

      expect(await run.publish(String(select?.command_topic), sent("Disabled"))).toMatchObject({ ok: true });
      await expect.poll(() => run.latest().givtcp_battery_pause_mode).toBe("Disabled");
      const back = run.lanWrites().slice(mark + paused.length);
      expect(back.map((write) => [write.register, write.outcome])).toEqual([[112, "applied"]]);
      await expect.poll(() => run.latest().setting_battery_discharge_power).toBe(limit);

      const reader = openStore(run.store);
      try {
        const rows = reader.audit.recent({ target: serial, limit: 10 }).filter((row) => !row.skipped);
        const discharge = rows.filter((row) => row.action === "setting:73");
        expect(discharge).toHaveLength(2);
        expect(discharge.every((row) => row.ok && row.source === "mqtt")).toBe(true);
        expect(rows.filter((row) => row.action === "preset:pause-battery" && row.ok)).toHaveLength(2);
      } finally {
        reader.close();
      }
    }, 30_000);

  if (scenario === "hybrid" && path === "local")
    it("shows the discharge target the daemon holds (the reserve until set) and keeps one set through GivTCP's number", async () => {
      const device = serial.toLowerCase();
      const number = run.configs.get(`number.givtcp_${device}_discharge_target_soc_1`);
      expect(number).toMatchObject({ min: 4, max: 100, unit_of_measurement: "%" });
      const reserve = Number(run.state.battery_operating_range_reserve_percent);
      expect(run.state.timed_export_discharge_target_percent).toBe(Math.max(4, reserve));
      const wanted = reserve === 45 ? 50 : 45;
      const writes = run.lanWrites().length;
      expect(await run.publish(String(number?.command_topic), String(wanted))).toMatchObject({ ok: true });
      await expect.poll(() => run.latest().timed_export_discharge_target_percent).toBe(wanted);
      // Kept by the daemon: nothing is written to the inverter.
      expect(run.lanWrites().length).toBe(writes);
    }, 30_000);

  it("gives the mode select a state among its options once the eco mode is known", () => {
    if (run.configs.get(`select.givtcp_${serial.toLowerCase()}_mode`) === undefined) return;
    // Over the LAN an AIO's presets are announced before their registers answer: no mode yet, as no eco mode.
    if (run.state.eco_mode === null) expect(run.state.givtcp_mode).toBeNull();
    else expect(fixture.values.inverter_mode).toContain(run.state.givtcp_mode);
  });
});

describe("commands through GivTCP's names on the demo house over the cloud", () => {
  let run: Run;
  const device = "sd2024g001";
  beforeAll(async () => {
    run = await startRun("demo", "SD2024G001", "cloud", RUNS.length);
  }, 90_000);
  afterAll(async () => {
    await run?.stop();
  });

  it("sets the mode Timed Export and the reserve through the gate, each audited, and refuses a bad mode", async () => {
    const mode = run.configs.get(`select.givtcp_${device}_mode`);
    const reserve = run.configs.get(`number.givtcp_${device}_battery_power_reserve`);
    expect(mode?.command_topic).toBe(`${run.base}/${device}/set/givtcp_mode`);
    expect(await run.publish(String(mode?.command_topic), "Timed Export")).toMatchObject({ ok: true });
    await expect.poll(() => run.latest().givtcp_mode).toBe("Timed Export");
    const wanted = run.state.battery_operating_range_reserve_percent === 35 ? 40 : 35;
    expect(await run.publish(String(reserve?.command_topic), String(wanted))).toMatchObject({ ok: true });
    await expect.poll(() => run.latest().battery_operating_range_reserve_percent).toBe(wanted);
    const refused = await run.publish(String(mode?.command_topic), "Turbo");
    expect(refused).toMatchObject({ ok: false });
    expect(String(refused.message)).toContain("Timed Export");

    const reader = openStore(run.store);
    try {
      const rows = reader.audit.recent({ target: "SD2024G001", limit: 20 });
      const applied = rows.filter((row) => row.ok && !row.skipped);
      expect(applied.some((row) => row.requesterName === "givtcp_mode" && row.action.includes("timed-export"))).toBe(
        true,
      );
      // The GivTCP reserve number commands through the own reserve entity's topic.
      expect(applied.some((row) => row.requesterName === "battery_operating_range_reserve_percent")).toBe(true);
      expect(rows.some((row) => !row.ok && row.requesterName === "givtcp_mode")).toBe(true);
    } finally {
      reader.close();
    }
  }, 60_000);

  it("takes GivTCP's names away again when the daemon starts with its own naming", async () => {
    await run.stop();
    run = await startRun("demo", "SD2024G001", "cloud", RUNS.length, "own");
    const ids = [...run.configs.keys()];
    expect(ids.filter((id) => id.includes(".givtcp"))).toEqual([]);
    expect(ids).toContain(`select.inverter_${device}_pause_battery_mode`);
    expect(run.state.givtcp_mode).toBeUndefined();
  }, 90_000);
});
