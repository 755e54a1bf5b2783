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
import type { RunningSimulator } from "../../src/simulator/index.js";
import { loadScenario } from "../../src/simulator/scenario/load.js";
import { openStore } from "../../src/store/index.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { withoutRandomFaults } from "../helpers/calm-scenario.js";
import { replayHomeAssistant } from "../helpers/ha-rules/index.js";
import { recordMqtt } from "../helpers/ha-rules/recorder.js";
import { observe } from "../helpers/mqtt-observer.js";
import { SIM_GAP_MS, startTestSimulator } from "../helpers/simulator.js";

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
 * Entities the template names that a house cannot give on a path, each with its reason: a sensor
 * is announced unavailable, saying so (docs/from-givtcp.md lists them); a control is not
 * announced. Whatever is not listed here must be announced with its value. (The template's commented auto_restart example,
 * switch.givtcp_{geserial}_reboot_invertor, is not an entity it reads: the restart is the own
 * `setting_restart_inverter` button, a button in Home Assistant rather than GivTCP's switch.)
 */
function notGiven(scenario: string, path: "cloud" | "local"): Readonly<Record<string, string>> {
  if (path === "cloud" && scenario === "gateway") {
    // Over the LAN the gateway's own IR 1640-1657 carry them (registers/gateway.ts). Over the cloud
    // the simulator serves its meter data's today/total as null, as the real-responses README says
    // the service does for a gateway; no real gateway meter-data body is on file to say otherwise
    // (Predbat's cloud client does read them from a gateway's own meter data: gecloud.py, batpred
    // aaba48fc). Its All-in-Ones' counters are theirs, not the house's: the grid is metered at the
    // gateway (its meters at 0x01/0x02 and IR 1640-1648 in the captured gateway), so no sum stands in.
    const today =
      "the service's meter data for a gateway has today/total null (real-responses README; no real gateway body on file); its AIOs' counters are their own, the house's grid is metered at the gateway";
    return { load_today: today, import_today: today, export_today: today, pv_today: today };
  }
  if (path === "cloud") return {};
  const absent: Record<string, string> = {};
  if (scenario === "ac-coupled")
    absent.load_today =
      "the PV an AC-coupled unit's home uses is on another inverter, in none of its registers: GivTCP's balance for it (inverter out - AC charge - export + import + its own PV, 0) reads 0 kWh on both captured AC units while their site used power (src/local/registers/load-balance.ts); the cloud computes it";
  // A hybrid's and a three-phase's pause and discharge target are held by the daemon (no HR 318-320
  // or HR 272, but the battery power limits to pause by); an AC-coupled unit's discharge target
  // too (no HR 272), beside its own pause registers.
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
  readonly simulator: RunningSimulator;
  readonly configs: Map<string, Json>;
  readonly state: Json;
  /** The device's state as last published. */
  readonly latest: () => Json;
  readonly base: string;
  readonly store: string;
  readonly stop: () => Promise<void>;
  readonly publish: (topic: string, payload: string) => Promise<Json>;
  /** The simulator's system data `time` for the inverter now, as the cloud answers it. */
  readonly cloudTime: () => Promise<string | null | undefined>;
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
      : {
          source: "local",
          local: sim.simulator.dongles.map((dongle) => ({ host: "127.0.0.1", port: dongle.port, gap_ms: SIM_GAP_MS })),
        };
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
    simulator: sim.simulator,
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
    cloudTime: async () => (await sim.clientFor("owner").inverterData.systemDataLatest(serial)).time,
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
      const domain = entity.split(".")[0];
      if (absentHere[key] !== undefined) {
        // A sensor the path cannot give is announced unavailable, saying so; a control is not announced.
        if (domain !== "sensor") {
          if (config) unexpected.push(`${entity} (said to be absent: ${absentHere[key]})`);
        } else if (!config) missing.push(`${key}: ${entity} (announced unavailable when not given)`);
        else {
          expect(String(config.json_attributes_template), entity).toContain("not_given");
          const stateKey = `givtcp_${entity.split(`_${serial.toLowerCase()}_`)[1]}`;
          // Its key carried as null (Home Assistant shows it unavailable), and why.
          expect(run.latest()[stateKey], entity).toBeNull();
          expect(String(run.latest().givtcp_not_given)).toContain("docs/from-givtcp.md#what-a-path-cannot-give");
        }
        continue;
      }
      if (!config) {
        missing.push(`${key}: ${entity}`);
        continue;
      }
      // Given: a value of its own, never the stand-in of one not given.
      expect(config.json_attributes_template, entity).toBeUndefined();
      // A distinct unique_id, so the own entity keeps its own.
      expect(String(config.unique_id)).toMatch(/_givtcp_/);
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

  it("gives invertor_time as GivTCP writes it: the inverter's clock over the LAN, the cloud's stamp over the cloud", async () => {
    const device = serial.toLowerCase();
    // Over the LAN the gateway's clock is not read (its row above says so).
    const config = run.configs.get(`sensor.givtcp_${device}_invertor_time`);
    if (config === undefined) return;
    // Polls that fail make the device unavailable (telemetry's health), and the time with it: no stale stamp.
    expect(config.availability).toEqual(
      expect.arrayContaining([expect.objectContaining({ topic: `${run.base}/${device}/availability` })]),
    );
    expect(config.device_class).toBe("timestamp");
    const shown = String(run.latest().givtcp_invertor_time);
    // Predbat's inverter.py reads it with "%Y-%m-%dT%H:%M:%S%z".
    expect(shown).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    if (path === "cloud") expect(Date.parse(shown)).toBe(Date.parse(String(await run.cloudTime())));
    else expect(run.state.clock_drift).toEqual(expect.any(Number));
  });

  it("gives the PV figures GivTCP gives: an AC-coupled unit's own PV input over the LAN (0), the site's over the cloud", () => {
    if (scenario !== "ac-coupled") return;
    const device = serial.toLowerCase();
    const power = run.configs.get(`sensor.givtcp_${device}_pv_power`);
    const today = run.configs.get(`sensor.givtcp_${device}_pv_energy_today_kwh`);
    if (path === "local") {
      expect(power?.value_template).toContain("pv_input_power");
      expect(today?.value_template).toContain("today_pv_input_energy");
      expect([run.state.pv_input_power, run.state.today_pv_input_energy]).toEqual([0, 0]);
      // The own solar entities stay away: the LAN does not see the site's PV.
      expect(run.configs.get(`sensor.inverter_${device}_solar_power`)).toBeUndefined();
    } else {
      expect(power?.value_template).toContain("solar_power");
      expect(run.state.solar_power).toEqual(expect.any(Number));
    }
    expect(today).toMatchObject({
      device_class: "energy",
      state_class: "total_increasing",
      unit_of_measurement: "kWh",
    });
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

  if ((scenario === "hybrid" || scenario === "ac-coupled") && path === "local")
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

describe("commands through GivTCP's names on the three-phase over the LAN", () => {
  let run: Run;
  const device = "st2024g001";
  beforeAll(async () => {
    run = await startRun("three-phase", "ST2024G001", "local", RUNS.length + 1);
  }, 90_000);
  afterAll(async () => {
    await run?.stop();
  });

  it("gives the battery's size and its rates from the registers, and sets Timed Export, Eco and a charge rate through the gate", async () => {
    // The simulated stack: 24.6 Ah through six 76.8 V modules; its rates in steps of 1 % of 12 kW.
    expect(run.state.battery_capacity).toBe(11.3);
    expect(run.state.givtcp_soc_kwh).toBe(Math.round(Number(run.state.battery_soc) * 11.3) / 100);
    const rate = run.configs.get(`number.givtcp_${device}_battery_charge_rate`);
    expect(rate).toMatchObject({ min: 120, max: 12_000, step: 120, unit_of_measurement: "W" });
    const mode = run.configs.get(`select.givtcp_${device}_mode`);
    expect(await run.publish(String(mode?.command_topic), "Timed Export")).toMatchObject({ ok: true });
    await expect.poll(() => run.latest().givtcp_mode).toBe("Timed Export");
    // The three-phase has no eco switch: a mode that needs one is refused, nothing written.
    const paused = await run.publish(String(mode?.command_topic), "Eco (Paused)");
    expect(paused).toMatchObject({ ok: false });
    expect(String(paused.message)).toContain("eco switch");
    expect(await run.publish(String(mode?.command_topic), "Eco")).toMatchObject({ ok: true });
    await expect.poll(() => run.latest().givtcp_mode).toBe("Eco");
    const wanted = run.latest().battery_operating_range_max_charge_watts === 2400 ? 3600 : 2400;
    expect(await run.publish(String(rate?.command_topic), String(wanted))).toMatchObject({ ok: true });
    await expect.poll(() => run.latest().battery_operating_range_max_charge_watts).toBe(wanted);

    const reader = openStore(run.store);
    try {
      const rows = reader.audit.recent({ target: "ST2024G001", limit: 20 });
      const applied = rows.filter((row) => row.ok && !row.skipped);
      expect(applied.some((row) => row.requesterName === "givtcp_mode" && row.action.includes("timed-export"))).toBe(
        true,
      );
      expect(rows.some((row) => !row.ok && row.requesterName === "givtcp_mode")).toBe(true);
      expect(applied.some((row) => row.requesterName === "battery_operating_range_max_charge_watts")).toBe(true);
    } finally {
      reader.close();
    }
  }, 90_000);
});

describe("commands through GivTCP's names on the gateway over the LAN", () => {
  let run: Run;
  let recorder: Awaited<ReturnType<typeof recordMqtt>>;
  const device = "gw2024g001";
  // After the three-phase's run (RUNS.length + 1): a base and prefix of its own.
  const index = RUNS.length + 2;
  const prefix = `hagiv${process.pid}n${index}`;
  beforeAll(async () => {
    // Everything the daemon publishes, retained flags as published, for Home Assistant's rules at the end.
    recorder = await recordMqtt(broker.url, [`e2mgiv${process.pid}n${index}/#`, `${prefix}/#`]);
    run = await startRun("gateway", "GW2024G001", "local", index);
  }, 90_000);
  afterAll(async () => {
    await run?.stop();
    await recorder?.close();
  });

  /** The single-register writes the gateway's own dongle received since `from`: register and word. */
  const gatewayWrites = (from: number) =>
    (run.simulator.local?.find("GW2024G001")?.writesReceived ?? [])
      .slice(from)
      .map((write) => ({ address: write.address, register: write.register, value: write.value }));
  const writesSoFar = () => run.simulator.local?.find("GW2024G001")?.writesReceived.length ?? 0;
  const gatewaySetting = (id: number) => run.simulator.world.gateways.get("GW2024G001")?.control.get(id);

  it("writes the reserve, a charge slot and the charge rate to the gateway's own registers, one request each, audited", async () => {
    const reserve = run.configs.get(`number.givtcp_${device}_battery_power_reserve`);
    const slot = run.configs.get(`select.givtcp_${device}_charge_start_time_slot_1`);
    const rate = run.configs.get(`number.givtcp_${device}_battery_charge_rate`);
    // The rate is % of the two All-in-Ones' 6000 W each (HR 313), so it moves in 120 W steps up to 12000 W.
    expect(rate).toMatchObject({ min: 120, max: 12_000, step: 120 });

    const wanted = gatewaySetting(71) === 35 ? 40 : 35;
    let mark = writesSoFar();
    expect(await run.publish(String(reserve?.command_topic), String(wanted))).toMatchObject({ ok: true });
    expect(gatewayWrites(mark)).toEqual([{ address: 0x11, register: 110, value: wanted }]);
    expect(gatewaySetting(71)).toBe(wanted);

    mark = writesSoFar();
    expect(await run.publish(String(slot?.command_topic), "01:30:00")).toMatchObject({ ok: true });
    expect(gatewayWrites(mark)).toEqual([{ address: 0x11, register: 94, value: 130 }]);
    expect(gatewaySetting(64)).toBe("01:30");

    mark = writesSoFar();
    expect(await run.publish(String(rate?.command_topic), "6000")).toMatchObject({ ok: true });
    expect(gatewayWrites(mark)).toEqual([{ address: 0x11, register: 313, value: 50 }]);
    expect(gatewaySetting(72)).toBe(6000);
    // No All-in-One behind it was written to.
    for (const aio of ["CH2024A001", "CH2024A002"])
      expect(run.simulator.local?.find(aio)?.writesReceived ?? []).toEqual([]);

    const reader = openStore(run.store);
    try {
      const applied = reader.audit.recent({ target: "GW2024G001", limit: 20 }).filter((row) => row.ok && !row.skipped);
      expect(applied.length).toBeGreaterThanOrEqual(3);
    } finally {
      reader.close();
    }
  }, 60_000);

  it("leaves Home Assistant nothing to log, its controls and their changes included", () => {
    const controls = recorder.messages.filter((m) => /\/(number|select|switch)\/gw2024g001\/.*\/config$/.test(m.topic));
    expect(controls.length).toBeGreaterThan(20);
    const result = replayHomeAssistant(recorder.messages, { discoveryPrefix: prefix, statusTopic: `${prefix}/status` });
    expect(result.findings.map((f) => `${f.rule} ${f.key ?? ""}: ${f.message}`)).toEqual([]);
  });

  it("shows the gateway's own clock and its All-in-Ones' capacity", () => {
    const time = Date.parse(String(run.latest().givtcp_invertor_time));
    expect(Math.abs(time - run.simulator.clock.now())).toBeLessThan(5 * 60_000);
    // Two All-in-Ones of 52 Ah at 307.2 V, as the cloud lists the gateway.
    expect(run.latest().battery_capacity).toBe(31.9);
  });
});
