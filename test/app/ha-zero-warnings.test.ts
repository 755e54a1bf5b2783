import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { bridgeNode } from "../../src/health/bridge-discovery.js";
import { rulesNode } from "../../src/homeassistant/rules-discovery.js";
import { Topics } from "../../src/homeassistant/topics.js";
import { createLogger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import { type Scenario, ScenarioError } from "../../src/simulator/index.js";
import { loadScenario } from "../../src/simulator/scenario/load.js";
import { deviceId, devicesOf, dongleOf, type Inventory } from "../../src/sources/index.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { withoutRandomFaults } from "../helpers/calm-scenario.js";
import { countByRule, type Finding, replayHomeAssistant, summariseFindings } from "../helpers/ha-rules/index.js";
import { type Recorded, recordMqtt } from "../helpers/ha-rules/recorder.js";
import { NEW_YEAR_RULES_YAML } from "../helpers/new-year-rules.js";
import { startTestSimulator } from "../helpers/simulator.js";

/**
 * Issue 12's "Done means": everything the daemon publishes during start-up, a steady period, a
 * Home Assistant birth message, a device outage and an inventory change is replayed through
 * Home Assistant's own rules (test/helpers/ha-rules, each rule citing the Home Assistant code
 * it comes from), on every built-in simulator scenario; Home Assistant must find nothing to log.
 */

/** The scenarios wanted; those the simulator does not know (yet) are listed, not skipped silently. */
const WANTED = ["demo", "fleet:3", "hybrid", "ac-coupled", "gateway", "aio", "three-phase", "plant-ems"];
/** The figure for the issue's note: messages published in the first seconds after start. */
const FIRST_SECONDS = 10;
const QUIET_MS = 1500;
const CYCLE_MS = 5 * 60_000;

function builtin(name: string): Scenario | undefined {
  try {
    return loadScenario(name);
  } catch (error) {
    if (error instanceof ScenarioError) return undefined;
    throw error;
  }
}

const scenarios = WANTED.flatMap((name) => {
  const scenario = builtin(name);
  return scenario ? [{ name, scenario }] : [];
});
const missing = WANTED.filter((name) => !scenarios.some((s) => s.name === name));
/**
 * Issue 39: the same houses with `homeassistant.naming: givtcp` (GivTCP's entities beside the
 * own ones), through start-up, the steady period and a birth message only: the outage and the
 * inventory change exercise nothing the naming changes. fleet:3 is the demo house three times, so the seven distinct houses suffice.
 */
const GIVTCP_RUNS = scenarios.filter((s) => s.name !== "fleet:3").map((s) => ({ ...s, naming: "givtcp" as const }));
const RUNS = [...scenarios.map((s) => ({ ...s, naming: "own" as const })), ...GIVTCP_RUNS];
console.info(
  `[ha-zero-warnings] scenarios run: ${scenarios.map((s) => s.name).join(", ")}; ` +
    `not built into this simulator: ${missing.length > 0 ? missing.join(", ") : "none"}`,
);

interface Step {
  readonly name: string;
  readonly ok: boolean;
  readonly note: string;
}

interface Session {
  readonly steps: readonly Step[];
  readonly findings: readonly Finding[];
  /** Decreases of today_* counters across the device's local midnight: the documented daily reset. */
  readonly dailyResets: readonly Finding[];
  readonly report: string;
}

it("runs every scenario it wants: none is missing from the simulator", () => {
  expect(missing).toEqual([]);
});

let broker: TestBroker;
/**
 * Each scenario's session, by its index. Each has its own simulator, store and topics on the one
 * broker, and spends its time waiting on its daemon's polls and quiet periods rather than on the
 * processor (one after the other they took two minutes), so they overlap: a session starts once
 * the one before has finished its start-up, so that no two daemons announce themselves at once.
 */
let sessions: Promise<Session>[] = [];
beforeAll(async () => {
  broker = await startTestBroker();
  let before: Promise<void> = Promise.resolve();
  sessions = RUNS.map(({ name, scenario, naming }, index) => {
    let startedUp = () => {};
    const turn = before;
    before = new Promise<void>((resolve) => {
      startedUp = resolve;
    });
    const session = turn.then(() => runSession(name, scenario, index, startedUp, naming));
    // A session that fails is reported by its own scenario's tests, which await it.
    session.then(startedUp, startedUp);
    return session;
  });
}, 30_000);
afterAll(async () => {
  await Promise.allSettled(sessions);
  await broker?.stop();
}, 240_000);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The local calendar day of an instant in a time zone. */
function localDay(at: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

function isDailyReset(finding: Finding, timeZone: string): boolean {
  const previousAt = finding.detail?.previousAt;
  return (
    finding.rule === "total-increasing-decrease" &&
    (finding.key ?? "").startsWith("today_") &&
    typeof previousAt === "number" &&
    finding.at !== undefined &&
    localDay(previousAt, timeZone) !== localDay(finding.at, timeZone)
  );
}

/** Device nodes of the discovery topics that still exist: the account's devices, their dongles, the rules, the bridge. */
function liveNodes(inventory: Inventory, topics: Topics): Set<string> {
  const nodes = new Set<string>(devicesOf(inventory).map(deviceId));
  for (const inverter of inventory.inverters) {
    const dongle = dongleOf(inverter);
    if (dongle) nodes.add(dongle.id);
  }
  nodes.add(rulesNode(topics));
  nodes.add(bridgeNode(topics));
  return nodes;
}

/** How much was published: in all, and in the first seconds (cut at the birth message, which re-publishes by design). */
function figures(messages: readonly Recorded[], started: number, prefix: string, birthAt: number | undefined): string {
  const end = Math.min(started + FIRST_SECONDS * 1000, birthAt ?? Number.POSITIVE_INFINITY);
  const first = messages.filter((m) => m.at <= end);
  const kinds = { configs: 0, states: 0, availability: 0, other: 0 };
  for (const m of first) {
    if (m.topic.startsWith(`${prefix}/`) && m.topic.endsWith("/config")) kinds.configs += 1;
    else if (m.topic.endsWith("/availability")) kinds.availability += 1;
    else if (!m.topic.startsWith(`${prefix}/`) && !m.topic.includes("/bridge/")) kinds.states += 1;
    else kinds.other += 1;
  }
  const seconds = Math.round(((messages.at(-1)?.at ?? started) - started) / 1000);
  const window =
    end < started + FIRST_SECONDS * 1000
      ? `${Math.round((end - started) / 100) / 10} s (up to the birth message)`
      : `${FIRST_SECONDS} s`;
  return `${messages.length} messages in ${seconds} s; in the first ${window}: ${first.length} (${Object.entries(kinds)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(", ")})`;
}

/** `startedUp` is called once the daemon's start-up (its first announcement) is over. */
async function runSession(
  name: string,
  scenario: Scenario,
  index: number,
  startedUp: () => void = () => {},
  naming: "own" | "givtcp" = "own",
): Promise<Session> {
  const dir = mkdtempSync(join(tmpdir(), "e2m-ha-rules-"));
  const base = `e2m${process.pid}s${index}`;
  const prefix = `ha${process.pid}s${index}`;
  const topics = new Topics(base, prefix);
  const statusTopic = `${prefix}/status`;
  // The session makes its own outage; the simulator's random faults (a comms loss of up to three
  // hours on some days) would make the starting state depend on the date the suite runs.
  const sim = await startTestSimulator({ scenario: withoutRandomFaults(scenario), requestsPerMinute: 100_000 });
  const recorder = await recordMqtt(broker.url, [`${base}/#`, `${prefix}/#`]);
  const actor = scenario.actors.find((a) => a.name === "owner")?.name ?? scenario.actors[0]?.name ?? "owner";
  writeFileSync(join(dir, "rules.yaml"), NEW_YEAR_RULES_YAML);
  const config = configSchema.parse({
    cloud: { url: sim.simulator.url, token: sim.simulator.tokens[actor], requests_per_minute: 10_000 },
    mqtt: { url: broker.url, base_topic: base },
    homeassistant: { discovery_prefix: prefix, status_topic: statusTopic, naming },
    poll: {
      inverter: "1s",
      meter: "1s",
      ems: "1s",
      ev_charger: "1s",
      events: "2s",
      smart_device: "2s",
      inventory: "1s",
    },
    store: { path: join(dir, "e2m.db") },
    rules: join(dir, "rules.yaml"),
    log: { level: "silent" },
  });
  const isConfig = (m: Recorded) => m.topic.startsWith(`${prefix}/`) && m.topic.endsWith("/config");
  const steps: Step[] = [];
  const step = async (stepName: string, run: () => Promise<string>) => {
    try {
      steps.push({ name: stepName, ok: true, note: await run() });
    } catch (error) {
      steps.push({ name: stepName, ok: false, note: (error as Error).message });
    }
  };
  const started = Date.now();
  let app: App | undefined;
  let removedNode: string | undefined;
  let birthAt: number | undefined;
  try {
    // The daemon's own clock starts where the simulator's does and runs in real time; the steps
    // below move the simulator's on alone, as a cloud whose clock runs ahead.
    app = await startApp(config, createLogger(process.env.E2M_TEST_LOG ?? "silent"), "0.0.0-test", {
      clock: new SimClock({ start: sim.simulator.clock.now() }),
    });
    const running = app;

    await step("start-up", async () => {
      await recorder.waitFor((m) => m.topic === topics.bridgeState && m.payload.includes('"online"'), 15_000);
      await recorder.waitFor(isConfig, 15_000);
      if (!(await recorder.waitForQuiet(isConfig, QUIET_MS, 30_000))) throw new Error("discovery never settled");
      return `${recorder.messages.filter(isConfig).length} config messages`;
    });
    startedUp();

    await step("steady period", async () => {
      // The simulated house changes slowly in real time: three poll cycles, each after moving the
      // simulated clock 5 minutes on, so that live values and counters move. Not across the local
      // midnight: the daemon takes the day from its own clock, which does not jump with the simulator's.
      const stateTopics = new Set(devicesOf(running.inventory).map((d) => topics.deviceState(deviceId(d))));
      const isState = (m: Recorded) => stateTopics.has(m.topic);
      const since = Date.now();
      let moved = 0;
      for (let cycle = 0; cycle < 3; cycle += 1) {
        const now = sim.simulator.clock.now();
        if (localDay(now, scenario.timezone) !== localDay(now + CYCLE_MS, scenario.timezone)) break;
        const before = Date.now();
        await sim.admin("/clock", { advance_ms: CYCLE_MS });
        moved += 1;
        // Two polls at the new time (or 5 s).
        const deadline = before + 5000;
        while (recorder.messages.filter((m) => isState(m) && m.at >= before).length < 2 && Date.now() < deadline)
          await pause(100);
      }
      const states = recorder.messages.filter((m) => isState(m) && m.at >= since).length;
      if (states === 0) throw new Error(`no state message in ${Date.now() - since} ms`);
      return `${states} state messages over ${moved} simulated 5-minute steps`;
    });

    await step("birth message", async () => {
      const since = Date.now();
      birthAt = since;
      await recorder.publish(statusTopic, "online");
      await recorder.waitFor((m) => isConfig(m) && m.at >= since, 10_000);
      if (!(await recorder.waitForQuiet(isConfig, QUIET_MS, 30_000))) throw new Error("discovery never settled");
      return `${recorder.messages.filter((m) => isConfig(m) && m.at >= since).length} configs re-published`;
    });

    if (naming === "own") await otherSteps();
    async function otherSteps(): Promise<void> {
      await step("device outage and recovery", async () => {
        const inverters = [...sim.simulator.world.inverters.values()];
        const standAlone = inverters.find((i) => i.emsSerial === undefined)?.serial;
        const charger = [...sim.simulator.world.chargers.values()][0]?.uuid;
        const target = standAlone ?? charger ?? inverters[0]?.serial;
        if (target === undefined) return "no inverter or charger in this scenario";
        const availability = topics.availability(target.toLowerCase());
        const since = Date.now();
        await sim.admin(`/devices/${target}`, { offline: true });
        const down = await recorder
          .waitFor((m) => m.topic === availability && m.payload === "offline" && m.at >= since, 20_000)
          .catch((error: Error) => {
            // An EMS child (the only kind in an EMS plant) is read through its EMS: its outage may not show.
            if (standAlone ?? charger) throw error;
            return undefined;
          });
        await sim.admin(`/devices/${target}`, { offline: false });
        if (!down) return `${target} (an EMS child) was offline for 20 s; its availability did not change`;
        await recorder.waitFor((m) => m.topic === availability && m.payload === "online" && m.at >= down.at, 30_000);
        return `${target} went offline and came back`;
      });

      await step("inventory change (a smart device added, then removed)", async () => {
        // The admin API cannot add or remove a device: the cloud API adds it, the world forgets it.
        const [plug] = await sim.clientFor(actor).smartDevices.create({
          serial_number: `PLUG-HA-RULES-${index}`,
          alias: "Rules plug",
        });
        if (!plug) throw new Error("the simulator created no smart device");
        const node = plug.uuid.toLowerCase();
        const inNode = (m: Recorded) => isConfig(m) && m.topic.split("/")[2] === node;
        const added = await recorder.waitFor((m) => inNode(m) && m.payload !== "", 15_000);
        await recorder.waitForQuiet(isConfig, QUIET_MS, 15_000);
        sim.simulator.world.smartDevices.delete(plug.uuid);
        removedNode = node;
        const removed = await recorder.waitFor((m) => inNode(m) && m.payload === "" && m.at >= added.at, 15_000);
        const deadline = Date.now() + 10_000;
        while (running.inventory.smartDevices.some((d) => d.uuid === plug.uuid) && Date.now() < deadline)
          await pause(100);
        await recorder.waitForQuiet(isConfig, QUIET_MS, 15_000);
        return `${node} announced at +${added.at - started} ms, removed at +${removed.at - started} ms`;
      });
    }

    const messages = [...recorder.messages];
    // For a look at what was published: E2M_HA_RULES_DUMP=<dir> writes it as JSON.
    const dump = process.env.E2M_HA_RULES_DUMP;
    if (dump) writeFileSync(join(dump, `${name.replace(/[^a-z0-9-]/gi, "_")}.json`), JSON.stringify(messages, null, 1));
    const nodes = liveNodes(running.inventory, topics);
    if (removedNode) nodes.delete(removedNode);
    const result = replayHomeAssistant(messages, {
      discoveryPrefix: prefix,
      statusTopic,
      isLive: (entity) => nodes.has(entity.nodeId),
    });
    const timeZone = scenario.timezone;
    const dailyResets = result.findings.filter((f) => isDailyReset(f, timeZone));
    const findings = result.findings.filter((f) => !isDailyReset(f, timeZone));
    const report = [
      `[ha-zero-warnings] ${name}${naming === "givtcp" ? " (naming: givtcp)" : ""}: ${figures(messages, started, prefix, birthAt)}`,
      `  steps: ${steps.map((s) => `${s.name}: ${s.ok ? "ok" : "FAILED"} (${s.note})`).join("; ")}`,
      `  ${result.entityCount} entities at the end, ${result.neverValued.length} never had a value${
        result.neverValued.length > 0 ? ` (e.g. ${result.neverValued.slice(0, 5).join(", ")})` : ""
      }`,
      `  findings by rule: ${JSON.stringify(countByRule(findings))}; daily resets allowed: ${dailyResets.length}`,
      summariseFindings(findings)
        .split("\n")
        .map((line) => `  ${line}`)
        .join("\n"),
    ].join("\n");
    console.info(report);
    return { steps, findings, dailyResets, report };
  } finally {
    await app?.stop();
    await recorder.close();
    await sim.stop();
  }
}

describe.each(RUNS.map((s, index) => ({ ...s, index })))(
  "Home Assistant's rules on everything the daemon publishes, scenario $name, naming $naming",
  ({ name, index, naming }) => {
    let session: Session;

    beforeAll(async () => {
      session = await (sessions[index] ?? Promise.reject(new Error(`no session for ${name}`)));
    }, 240_000);

    it("went through start-up, a steady period, a birth message and (own names) an outage and an inventory change", () => {
      expect(session.steps.filter((s) => !s.ok)).toEqual([]);
      expect(session.steps.map((s) => s.name)).toHaveLength(naming === "own" ? 5 : 3);
    });

    it("gives Home Assistant nothing to log", () => {
      // By rule, so that a failure reads as a list; the report above has examples and sources.
      expect(countByRule(session.findings), session.report).toEqual({});
    });
  },
);
