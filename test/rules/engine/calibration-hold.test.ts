import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { Subject, startWith } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rulesPlan } from "../../../src/app/web-plan.js";
import { cloudDeviceReads } from "../../../src/control/index.js";
import {
  CALIBRATION_ENDS_WINDOW,
  CALIBRATION_HOLDING,
  CALIBRATION_PLAN_NOTE,
  calibrationHeldTrigger,
} from "../../../src/rules/engine/calibration-hold.js";
import { type RuleEvent, type RulesEngine, startRules } from "../../../src/rules/engine/index.js";
import type { LiveObservation } from "../../../src/rules/engine/live-state.js";
import { loadRules } from "../../../src/rules/file/load.js";
import { observedIn } from "../../../src/rules/house/live-input.js";
import type { HouseForecast } from "../../../src/rules/planners/optimise-windows.js";
import { createTariff, type Tariff } from "../../../src/rules/tariffs/index.js";
import type { SimDongle } from "../../../src/simulator/local/dongle.js";
import { localControl, type Resource } from "../../../src/sources/index.js";
import { HOLDING_REFRESH_MS } from "../../../src/sources/local/holding-refresh.js";
import { type LanGate, startLanGate } from "../../helpers/lan-gate.js";
import { DEFAULT_POLL } from "../../helpers/poll.js";
import { startTestSimulator } from "../../helpers/simulator.js";
import { HOUR, INVERTER, MINUTE, shiftedAgile, VirtualScheduler } from "./helpers.js";

/*
 * Issue 38: a battery calibration started in the simulator, read over the LAN (HR 29) by the
 * demo house's inverter, holds the optimiser: its next plan holds and says why, and no window
 * opens (no write reaches the dongle) until the calibration ends; then the windows open again.
 * The engine runs on the simulator's manual clock; the LAN sessions on their own running clock,
 * moved on by HOLDING_REFRESH_MS so that the poll reads HR 0-59 (and the stage in it) again.
 */

// 23:00 UTC on a winter Tuesday, when the fixture's Agile day begins; London is on UTC in January.
const START = Date.UTC(2025, 0, 14, 23, 0);
const SLOT = 30 * MINUTE;
/**
 * The dongle's heartbeats a day apart: the engine's half-hour jumps of the simulator's clock would
 * otherwise send three at once, unanswered, and the dongle would close the connection.
 */
const HEARTBEAT_MS = 24 * HOUR;
const RULES = [
  "timezone: Europe/London",
  "battery: { capacity_kwh: 9.5, charge_kw: 3 }",
  "tariffs:",
  "  import: { type: agile, file: agile.json }",
  "  export: { type: fixed, price: 0.01 }",
  "rules:",
  "  - name: optimiser",
  "    when: { optimise: { reserve_soc: 10 } }",
  // Windows that write a setting the Gen1's LAN map offers (the battery reserve, HR 110): one due
  // during the calibration, one the day after it.
  "  - name: night-reserve",
  "    priority: 1",
  '    when: { cheapest: { hours: 1, before: "07:00" } }',
  "    do: [{ setting: 71, value: 20 }]",
  "  - name: day-reserve",
  '    when: { cheapest: { hours: 1, after: "10:00", before: "22:00" } }',
  "    do: [{ setting: 71, value: 30 }]",
  // A one-off action at 02:30, during the calibration: held, not sent.
  "  - name: night-cron",
  "    priority: 2",
  '    when: { cron: "30 2 * * *" }',
  "    do: [{ setting: 71, value: 15 }]",
];

/** 0.1 kWh a half-hour, 0.4 from 16:00 to 19:00; no solar (a January night and day). */
function house(now: number): HouseForecast {
  const from = Math.floor(now / SLOT) * SLOT;
  const load = Array.from({ length: 96 }, (_, slot) => {
    const hour = new Date(from + slot * SLOT).getUTCHours();
    return hour >= 16 && hour < 19 ? 0.4 : 0.1;
  });
  return { from, load, solar: load.map(() => 0), days: 7 };
}

describe("a battery calibration read over the LAN holds the optimiser", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let lan: LanGate;
  let dongle: SimDongle;
  let live: Resource;
  let runtime: RulesEngine;
  let scheduler: VirtualScheduler;
  let planPage: ReturnType<typeof rulesPlan>;
  const observations = new Subject<LiveObservation>();
  const events: RuleEvent[] = [];
  const logs: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), "e2m-calibration-"));

  /** One LAN poll of the inverter's live values, as telemetry would fetch it. */
  const poll = async (): Promise<LiveObservation> => {
    const result = await live.poll(new AbortController().signal);
    const seen = result.fetched ? observedIn(result.fetched) : undefined;
    if (!seen) throw new Error("the LAN poll brought no live values");
    return seen;
  };
  /** A poll that reads HR 0-59 again (the calibration stage), given to the engine. */
  const pushFreshStage = async (): Promise<LiveObservation> => {
    lan.clock.advance(HOLDING_REFRESH_MS);
    const seen = await poll();
    observations.next(seen);
    await runtime.idle();
    return seen;
  };
  const advanceTo = (target: number) => scheduler.advanceTo(target, () => runtime.idle());
  const rule = (name: string) => runtime.list().find((one) => one.name === name);
  const optimiser = () => rule("optimiser");
  const opened = () => events.filter((event) => event.type === "window" && event.phase === "open");
  const holdingLogs = () => logs.filter((line) => line.includes(`"msg":"${CALIBRATION_HOLDING}"`));

  beforeAll(async () => {
    sim = await startTestSimulator({
      speed: 0,
      start: START,
      localPort: 0,
      localResponseDelayMs: 0,
      localHeartbeatMs: HEARTBEAT_MS,
    });
    const found = sim.simulator.local?.find(INVERTER);
    if (!found) throw new Error(`no dongle for ${INVERTER}`);
    dongle = found;
    lan = await startLanGate({ ports: [dongle.port], dir, storeFile: "energy2mqtt.db", start: START });
    const resource = lan.source
      .resources(lan.inventory, DEFAULT_POLL, () => sim.simulator.clock.now())
      .find((one) => one.of?.kind === "inverter.live" && one.of.serial === INVERTER);
    if (!resource) throw new Error(`no live resource for ${INVERTER}`);
    live = resource;
    writeFileSync(join(dir, "agile.json"), shiftedAgile(START));
    writeFileSync(join(dir, "rules.yaml"), `${RULES.join("\n")}\n`);
    const loaded = loadRules(join(dir, "rules.yaml"));
    const tariffs: { import?: Tariff; export?: Tariff } = {};
    if (loaded.rules.tariffs.import) tariffs.import = createTariff(loaded.rules.tariffs.import, "Europe/London");
    if (loaded.rules.tariffs.export) tariffs.export = createTariff(loaded.rules.tariffs.export, "Europe/London");
    planPage = rulesPlan(loaded, () => lan.inventory, undefined, sim.simulator.clock);
    const first = await poll();
    expect(first).toMatchObject({ kind: "inverter", serial: INVERTER, calibrating: false });
    scheduler = new VirtualScheduler(sim.simulator.clock);
    runtime = await startRules({
      rules: loaded.rules,
      tariffs,
      gate: lan.gate,
      reads: cloudDeviceReads(localControl({ dongleOf: (serial) => lan.source.dongleOf(serial), answerMs: 12_000 })),
      store: lan.store,
      inventory: () => lan.inventory,
      live$: observations.pipe(startWith(first)),
      clock: scheduler,
      logger: pino({ level: "info" }, { write: (line: string) => logs.push(line) }),
      house,
    });
    runtime.events$.subscribe((event) => events.push(event));
  }, 60_000);

  afterAll(async () => {
    await runtime?.stop();
    lan?.close();
    await sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("plans windows tonight while no calibration runs", () => {
    for (const name of ["optimiser", "night-reserve"]) {
      const next = rule(name)?.nextWindow;
      expect(next?.start, name).toBeGreaterThanOrEqual(START);
      expect(next?.start, name).toBeLessThan(START + 8 * HOUR);
    }
    expect(optimiser()?.planNow?.reason).not.toBe(CALIBRATION_HOLDING);
  });

  it("once the simulator's calibration is read, the next plan holds and says why, logged once", async () => {
    await sim.admin(`/inverters/${INVERTER}/calibration`, { running: true });
    const seen = await pushFreshStage();
    expect(seen).toMatchObject({ calibrating: true });
    expect(optimiser()?.planNow).toMatchObject({ action: "hold", reason: CALIBRATION_HOLDING });
    expect(runtime.explainedPlan("optimiser")).toEqual([
      expect.objectContaining({ action: "hold", reason: CALIBRATION_HOLDING }),
    ]);
    expect(holdingLogs()).toHaveLength(1);
    // The Plan page (and `rules plan`, which asks the daemon for it) says so too.
    expect(runtime.calibrating()).toBe(true);
    const page = await planPage({ socPercent: 50, calibrating: runtime.calibrating() });
    expect(page?.notes[0]).toBe(CALIBRATION_PLAN_NOTE);
    expect(page?.battery.calibrating).toBe(true);
  });

  it("opens no window and writes nothing to the dongle while it runs, through the window it would have opened", async () => {
    const ends = ["optimiser", "night-reserve"].map((name) => rule(name)?.nextWindow?.end ?? 0);
    const until = Math.max(...ends, START + 8 * HOUR);
    for (let at = sim.simulator.clock.now() + SLOT; at <= until; at += SLOT) {
      await advanceTo(at);
      observations.next(await poll());
      await runtime.idle();
      expect(optimiser()?.planNow?.reason).toBe(CALIBRATION_HOLDING);
    }
    expect(opened()).toEqual([]);
    expect(dongle.writesReceived).toEqual([]);
    expect(holdingLogs()).toHaveLength(1);
    // The 02:30 cron came and was held, saying why.
    const cronHeld = logs.filter((line) => line.includes(calibrationHeldTrigger("cron")));
    expect(cronHeld).toHaveLength(1);
    expect(rule("night-cron")?.lastRun).toMatchObject({ ok: true, message: calibrationHeldTrigger("cron") });
  }, 120_000);

  it("once it ends, the plan is made again and the next window opens and writes as usual", async () => {
    await sim.admin(`/inverters/${INVERTER}/calibration`, { running: false });
    const seen = await pushFreshStage();
    expect(seen).toMatchObject({ calibrating: false });
    expect(optimiser()?.planNow?.reason).not.toBe(CALIBRATION_HOLDING);
    expect(logs.some((line) => line.includes("calibration ended: planning again"))).toBe(true);
    const page = await planPage({ socPercent: 50, calibrating: runtime.calibrating() });
    expect(page?.notes).not.toContain(CALIBRATION_PLAN_NOTE);
    const limit = sim.simulator.clock.now() + 36 * HOUR;
    const dayReserve = () => opened().filter((event) => event.rule === "day-reserve");
    for (let at = sim.simulator.clock.now() + SLOT; at <= limit && dayReserve().length === 0; at += SLOT)
      await advanceTo(at);
    expect(opened().filter((event) => event.rule === "optimiser").length).toBeGreaterThan(0);
    expect(dayReserve()).toHaveLength(1);
    // The reserve's register (HR 110) took 30%, applied.
    expect(dongle.writesReceived.map((write) => [write.register, write.value, write.outcome])).toContainEqual([
      110,
      30,
      "applied",
    ]);
  }, 180_000);

  it("a calibration starting in an open window ends it early: its restore goes through the gate, audited, and says why", async () => {
    const lastWindowEvent = () =>
      events.filter((event) => event.type === "window" && event.rule === "day-reserve").at(-1);
    expect(lastWindowEvent()).toMatchObject({ phase: "open" });
    const audited = () => lan.store.audit.recent({ target: INVERTER, limit: 100 });
    const before = audited().length;
    const writes = dongle.writesReceived.length;
    await sim.admin(`/inverters/${INVERTER}/calibration`, { running: true });
    const seen = await pushFreshStage();
    expect(seen).toMatchObject({ calibrating: true });
    expect(lastWindowEvent()).toMatchObject({ phase: "close", message: CALIBRATION_ENDS_WINDOW });
    const restored = events.filter((event) => event.type === "restore");
    expect(restored.at(-1)).toMatchObject({ rule: "day-reserve", ok: true });
    expect(restored.at(-1)?.message).toMatch(new RegExp(`^${CALIBRATION_ENDS_WINDOW}: `));
    // The reserve's register put back to what it was before the window (not 30), applied.
    const [restore] = dongle.writesReceived.slice(writes);
    expect(restore).toMatchObject({ register: 110, outcome: "applied" });
    expect(restore?.value).not.toBe(30);
    // The restore is a change like any other: in the audit log, as the rule's.
    const added = audited().slice(0, audited().length - before);
    expect(added).toEqual([expect.objectContaining({ source: "rule", requesterName: "day-reserve", ok: true })]);
  }, 60_000);
});
