import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import { counterValuesOf } from "../../src/sources/cloud/readings.js";
import { openStore } from "../../src/store/index.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { checkHomeAssistantRules } from "../helpers/ha-rules/index.js";
import { observe } from "../helpers/mqtt-observer.js";
import { MIDDAY, SIM_GAP_MS, startTestSimulator } from "../helpers/simulator.js";
import { retainedUnder } from "../homeassistant/rules-harness.js";

/*
 * Two daemons on the demo house, one reading the cloud, one the dongles on the LAN (and no cloud
 * at all). The house stands still at MIDDAY (speed 0), so both read one instant; each daemon's
 * own clock runs from MIDDAY in real time, so its sessions' pacing and its polls go on.
 */

type Json = Record<string, unknown>;
const DEVICES = ["sd2024g001", "em2024e001"] as const;

interface Side {
  readonly app: App;
  readonly base: string;
  readonly prefix: string;
}

interface Snapshot {
  /** Discovery configs by unique_id. */
  readonly configs: Map<string, Json>;
  /** Retained state JSON by device id. */
  readonly states: Map<string, Json>;
  readonly retained: Map<string, string>;
}

/**
 * Sensors only the cloud carries (docs/entities.md, "Which path carries what"), by unique_id with
 * the daemon's base topic as <base>. Besides these the cloud alone has every control (settings,
 * presets and actions a model has no register for, the cloud's snapshots), the EV charger and the smart device.
 */
const ONLY_CLOUD_SENSORS = [
  // The cloud computes the home's lifetime consumption and AC charge; no register holds them (the LAN balances today's).
  "energy2mqtt_sd2024g001_total_consumption_energy",
  "energy2mqtt_sd2024g001_total_ac_charge_energy",
  // The EMS's car power, error and warning codes are not in its rollup registers (its meter types are: IR 2042).
  "energy2mqtt_em2024e001_car_power",
  "energy2mqtt_em2024e001_error_code",
  "energy2mqtt_em2024e001_warning_code",
];

/** The hybrid's second string: its registers hold two arrays, the cloud lists one. */
const ONLY_LOCAL = [
  // The devices' own clocks (HR 35-40) and the button that sets them; the cloud's system data has no field for them (docs/clock.md).
  "energy2mqtt_em2024e001_clock_drift",
  "energy2mqtt_em2024e001_sync_clock",
  // The battery calibration's stage is HR 29; the cloud's API shows no calibration.
  "energy2mqtt_sd2024g001_calibrating",
  "energy2mqtt_sd2024g001_calibration",
  "energy2mqtt_sd2024g001_clock_drift",
  "energy2mqtt_sd2024g001_solar_array_2_current",
  "energy2mqtt_sd2024g001_solar_array_2_power",
  "energy2mqtt_sd2024g001_solar_array_2_voltage",
  "energy2mqtt_sd2024g001_sync_clock",
  // The hybrid has no discharge target register (HR 272): over the LAN the daemon holds the target
  // itself (src/control/discharge-target.ts); the cloud's Timed Export has its slots' own limits.
  "energy2mqtt_sd2024g001_timed_export_discharge_target_percent",
];

/**
 * Numbers whose range over the LAN is their register's on the model, not the cloud listing's
 * (docs/entities.md, "Which path carries what"): the EMS's plant export limit (HR 2071).
 */
const LAN_RANGES: Readonly<Record<string, { min: number; max: number; step?: number }>> = {
  energy2mqtt_em2024e001_grid_settings_export_limit_watts: { min: 0, max: 65_535 },
  // HR 111/112's 0-50 C-rate words on the demo's 9.5 kWh battery (95 W a word); the cloud's is the inverter's 3600 W.
  energy2mqtt_sd2024g001_battery_operating_range_max_charge_watts: { min: 0, max: 4750, step: 95 },
  energy2mqtt_sd2024g001_battery_operating_range_max_discharge_watts: { min: 0, max: 4750, step: 95 },
  energy2mqtt_sd2024g001_setting_battery_charge_power: { min: 0, max: 4750, step: 95 },
  energy2mqtt_sd2024g001_setting_battery_discharge_power: { min: 0, max: 4750, step: 95 },
};

/**
 * State keys the LAN daemon holds itself rather than reads: the hybrid has no pause registers
 * (HR 318-320), so its pause slot is the daemon's own (00:00-23:59 until one is set), where the
 * cloud shows the slot it keeps for the inverter.
 */
const HELD_BY_LAN_DAEMON: ReadonlyMap<string, string> = new Map([
  ["pause_battery_start_time", "00:00:00"],
  ["pause_battery_end_time", "23:59:00"],
]);

/** The EMS's inverters have dongles of their own: over the LAN each is read live, the cloud gives them only through the EMS's rollup. */
const EMS_CHILD = /^energy2mqtt_se2024g10[12]_/;
/** The EMS's own slot settings, which both paths offer. */
const EMS_SETTING = /^energy2mqtt_em2024e001_setting_/;
const EV_OR_SMART = /^energy2mqtt_(6b1f0c8e|9d7e4c2a)-/;

async function snapshot(url: string, side: Side): Promise<Snapshot> {
  const retained = new Map([
    ...(await retainedUnder(url, `${side.prefix}/#`)),
    ...(await retainedUnder(url, `${side.base}/#`)),
  ]);
  const configs = new Map<string, Json>();
  for (const [topic, payload] of retained) {
    if (!topic.startsWith(`${side.prefix}/`) || !topic.endsWith("/config") || payload === "") continue;
    const config = JSON.parse(payload) as Json;
    if (typeof config.unique_id === "string") configs.set(config.unique_id.replace(side.base, "<base>"), config);
  }
  const states = new Map<string, Json>();
  for (const id of DEVICES) {
    const payload = retained.get(`${side.base}/${id}`);
    if (payload) states.set(id, JSON.parse(payload) as Json);
  }
  return { configs, states, retained };
}

/** A config with the topics (which carry each daemon's own base) and the device block's path-dependent fields set aside. */
function comparable(config: Json, side: Side): Json {
  const text = JSON.stringify(config).replaceAll(side.base, "<base>").replaceAll(side.prefix, "<prefix>");
  const { device, origin: _origin, ...rest } = JSON.parse(text) as Json;
  const { model: _model, sw_version: _sw, ...block } = device as Json;
  return { ...rest, device: block };
}

describe("two daemons on the demo house: source cloud and source local", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let cloud: Side;
  let local: Side;
  const dir = mkdtempSync(join(tmpdir(), "e2m-two-paths-"));
  let fromCloud: Snapshot;
  let fromLocal: Snapshot;

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({
      speed: 0,
      start: MIDDAY,
      localPort: 0,
      localResponseDelayMs: 0,
      requestsPerMinute: 100_000,
    });
    const logger = createLogger(process.env.E2M_TEST_LOG ?? "silent");
    const common = (name: string) => {
      const base = `e2m${process.pid}${name}`;
      const prefix = `ha${process.pid}${name}`;
      return {
        base,
        prefix,
        config: {
          mqtt: { url: broker.url, base_topic: base },
          homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
          poll: { inventory: "1h" },
          store: { path: join(dir, `${name}.db`) },
          web: { enabled: false },
          log: { level: "silent" },
        },
      };
    };
    const c = common("cloud");
    const l = common("local");
    const [cloudApp, localApp] = await Promise.all([
      startApp(
        configSchema.parse({
          ...c.config,
          cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
        }),
        logger,
        "0.0.0-test",
        { clock: new SimClock({ start: MIDDAY }) },
      ),
      startApp(
        configSchema.parse({
          ...l.config,
          source: "local",
          local: sim.simulator.dongles.map((dongle) => ({ host: "127.0.0.1", port: dongle.port, gap_ms: SIM_GAP_MS })),
        }),
        logger,
        "0.0.0-test",
        { clock: new SimClock({ start: MIDDAY }) },
      ),
    ]);
    cloud = { app: cloudApp, base: c.base, prefix: c.prefix };
    local = { app: localApp, base: l.base, prefix: l.prefix };
    // Until both have published the inverter's counters and the EMS's children, and announced them.
    const watcher = await observe(broker.url, [`${c.prefix}/#`, `${l.prefix}/#`]);
    try {
      for (const side of [cloud, local]) {
        for (const topic of [
          `${side.prefix}/sensor/sd2024g001/today_grid_import_energy/config`,
          `${side.prefix}/sensor/sd2024g001/battery_power/config`,
          `${side.prefix}/sensor/em2024e001/inverter_2_soc/config`,
        ])
          await watcher.waitFor((m) => m.topic === topic && m.payload !== "", 20_000);
      }
    } finally {
      await watcher.close();
    }
    fromCloud = await snapshot(broker.url, cloud);
    fromLocal = await snapshot(broker.url, local);
  }, 90_000);

  afterAll(async () => {
    await cloud?.app.stop();
    await local?.app.stop();
    await sim?.stop();
    await broker?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the local daemon started no simulator and reaches no cloud", () => {
    expect(local.app.simulated).toBe(false);
    expect(local.app.cloudUrl).toBe("");
    expect(local.app.inventory.inverters.map((i) => i.serial).sort()).toEqual([
      "SD2024G001",
      "SE2024G101",
      "SE2024G102",
    ]);
  });

  it("announces the same discovery config, under the same unique_id, for every entity both paths carry", () => {
    const shared = [...fromLocal.configs.keys()].filter((id) => fromCloud.configs.has(id));
    expect(shared.length).toBeGreaterThan(40);
    for (const id of shared) {
      const mine = comparable(fromLocal.configs.get(id) ?? {}, local);
      const theirs = comparable(fromCloud.configs.get(id) ?? {}, cloud);
      // The EMS's slot settings start disabled on both: over the LAN too it lists presets (its
      // plant enable and export limit), so its slots are not its only controls.
      if (EMS_SETTING.test(id)) expect(mine.enabled_by_default, id).toBe(false);
      const range = LAN_RANGES[id];
      if (range) {
        expect({ min: mine.min, max: mine.max, ...(range.step === undefined ? {} : { step: mine.step }) }, id).toEqual(
          range,
        );
        expect({ ...mine, ...range }, id).toEqual({ ...theirs, ...range });
      } else expect(mine, id).toEqual(theirs);
    }
    const onlyCloud = [...fromCloud.configs.keys()].filter((id) => !fromLocal.configs.has(id)).sort();
    const onlyLocal = [...fromLocal.configs.keys()].filter((id) => !fromCloud.configs.has(id)).sort();
    const cloudControls = onlyCloud.filter((id) => fromCloud.configs.get(id)?.command_topic !== undefined);
    expect(cloudControls.length).toBeGreaterThan(50);
    expect(onlyCloud.filter((id) => !cloudControls.includes(id) && !EV_OR_SMART.test(id))).toEqual(
      [...ONLY_CLOUD_SENSORS].sort(),
    );
    expect(onlyLocal.filter((id) => !EMS_CHILD.test(id))).toEqual(ONLY_LOCAL);
    expect(onlyLocal).toEqual(
      expect.arrayContaining(["energy2mqtt_se2024g102_battery_soc", "energy2mqtt_se2024g101_grid_power"]),
    );
  });

  it("publishes states that agree within the simulator's rounding", async () => {
    // The cloud daemon's counters are its last 5-minute data point; the registers' are this instant's,
    // which the cloud's meter-data/latest gives too.
    const meter = await sim.clientFor("owner").inverterData.meterDataLatest("SD2024G001");
    const counters = counterValuesOf(meter);
    for (const id of DEVICES) {
      const mine = fromLocal.states.get(id) ?? {};
      const theirs = fromCloud.states.get(id) ?? {};
      const compared: string[] = [];
      const disagree: string[] = [];
      for (const [key, value] of Object.entries(theirs)) {
        const other = mine[key];
        if (value === null || other === null || other === undefined || key.startsWith("last_")) continue;
        const held = HELD_BY_LAN_DAEMON.get(key);
        if (held !== undefined) {
          if (other !== held) disagree.push(`${key}: the LAN daemon's own ${held}, local ${String(other)}`);
          continue;
        }
        compared.push(key);
        if (typeof value === "number" && typeof other === "number") {
          const energy = key.endsWith("_energy");
          const now = energy && id === "sd2024g001" ? counters[key] : value;
          // Over the LAN today's consumption is balanced from five counters of 0.1 kWh each.
          const within = key === "today_consumption_energy" ? 0.25 + 1e-9 : energy ? 0.05 + 1e-9 : 1e-9;
          if (typeof now !== "number" || Math.abs(now - other) > within)
            disagree.push(`${key}: cloud ${String(now)}, local ${other}`);
          // A counter never runs backwards between the cloud's last point and this instant.
          if (energy && other < value - within)
            disagree.push(`${key}: cloud's last point ${value} above local ${other}`);
        } else if (String(value).toUpperCase() !== String(other).toUpperCase()) {
          disagree.push(`${key}: cloud ${String(value)}, local ${String(other)}`);
        }
      }
      expect(disagree, id).toEqual([]);
      expect(compared.length, id).toBeGreaterThan(8);
    }
    expect(fromLocal.states.get("sd2024g001")).toMatchObject({
      battery_soc: expect.any(Number),
      today_grid_import_energy: expect.any(Number),
    });
  });

  it("changes the reserve over the LAN on the LAN-only daemon: an MQTT command, one write on the dongle, which the cloud reads", async () => {
    const dongle = sim.simulator.local?.find("SD2024G001");
    if (!dongle) throw new Error("no dongle for SD2024G001");
    const entity = "battery_operating_range_reserve_percent";
    const result = `${local.base}/sd2024g001/result`;
    const watcher = await observe(broker.url, [result]);
    try {
      const before = await sim.clientFor("owner").inverterControl.readSetting("SD2024G001", 71);
      const wanted = before.ok && before.value === 30 ? 35 : 30;
      const writes = dongle.writesReceived.length;
      await watcher.publish(`${local.base}/sd2024g001/set/${entity}`, String(wanted));
      const answer = JSON.parse((await watcher.waitFor((m) => m.topic === result, 20_000)).payload) as Json;
      expect(answer).toMatchObject({ ok: true });
      expect(dongle.writesReceived.slice(writes).map((write) => [write.register, write.value, write.outcome])).toEqual([
        [110, wanted, "applied"],
      ]);
      expect(await sim.clientFor("owner").inverterControl.readSetting("SD2024G001", 71)).toMatchObject({
        ok: true,
        value: wanted,
      });
    } finally {
      await watcher.close();
    }
  });

  it("takes the LAN-only daemon's snapshot itself, from the dongle's registers, and keeps it in its store", async () => {
    const topic = `${local.base}/bridge/response/snapshot/take`;
    const watcher = await observe(broker.url, [topic]);
    const dongle = sim.simulator.local?.find("SD2024G001");
    if (!dongle) throw new Error("no dongle for SD2024G001");
    const requests = dongle.stats.requests;
    try {
      await watcher.publish(
        `${local.base}/bridge/request/snapshot/take`,
        JSON.stringify({ serial: "SD2024G001", name: "before", transaction: "t1" }),
      );
      const answer = JSON.parse((await watcher.waitFor((m) => m.topic === topic, 20_000)).payload) as Json;
      expect(answer).toMatchObject({ status: "ok", transaction: "t1" });
      expect(answer.data).toMatchObject({ unread: [] });
    } finally {
      await watcher.close();
    }
    const reader = openStore(join(dir, "local.db"));
    try {
      expect(reader.localSnapshots.get("SD2024G001", "before")?.settings.length).toBeGreaterThan(10);
    } finally {
      reader.close();
    }
    // The settings are read a block of registers at a time, not one request per setting.
    expect(dongle.stats.requests - requests).toBeLessThan(20);
  });

  it("keeps history rows from its local reads, with no cloud to backfill from", async () => {
    const reader = openStore(join(dir, "local.db"));
    try {
      const countOf = (kind: string, device: string) =>
        reader.history.summary().find((row) => row.kind === kind && row.device === device)?.count ?? 0;
      const deadline = Date.now() + 10_000;
      while (countOf("inverter.point", "SD2024G001") === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(countOf("inverter.live", "SD2024G001")).toBeGreaterThan(0);
      expect(countOf("inverter.point", "SD2024G001")).toBeGreaterThan(0);
      expect(countOf("ems", "EM2024E001")).toBeGreaterThan(0);
    } finally {
      reader.close();
    }
  });

  it("leaves Home Assistant's schemas and template keys clean on both", () => {
    for (const [side, snap] of [
      [cloud, fromCloud],
      [local, fromLocal],
    ] as const) {
      const messages = [...snap.retained].map(([topic, payload]) => ({ topic, payload, retain: true }));
      const configsFirst = [
        ...messages.filter((m) => m.topic.startsWith(`${side.prefix}/`)),
        ...messages.filter((m) => !m.topic.startsWith(`${side.prefix}/`)),
      ];
      expect(checkHomeAssistantRules(configsFirst, { discoveryPrefix: side.prefix }), side.base).toEqual([]);
    }
  });
});
