import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger, LogFeed } from "../../src/log/log.js";
import { later } from "../../src/time/index.js";
import type { LiveSnapshot } from "../../src/web/api-types.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { MIDDAY, SIM_GAP_MS, startTestSimulator } from "../helpers/simulator.js";

/*
 * A fault raised in the simulator's inverter (its admin endpoint) reaches the owner in words
 * whichever path reads it: over the LAN from its fault registers (a single-phase inverter's
 * HR 223-224 and IR 57, a three-phase one's IR 1300-1307), over the cloud as an event with no end.
 * Neither house has a fault of its own at MIDDAY. The house stands still (speed 0); the shared
 * simulated clock is pumped so that the daemons' polls run.
 */

const TICK_MS = 50;

type Json = Record<string, unknown>;

interface Side {
  readonly name: "cloud" | "local";
  readonly app: App;
  readonly base: string;
  readonly prefix: string;
}

interface FaultCase {
  /** The simulator's scenario; the demo house when left out. */
  readonly scenario?: string;
  readonly serial: string;
  /** Two of the inverter's fault words, from two of its registers. */
  readonly raised: readonly string[];
  /** A word of the other family's registers, which this inverter has none for. */
  readonly foreign: string;
}

const CASES: readonly [string, FaultCase][] = [
  [
    "the demo house's single-phase hybrid",
    {
      serial: "SD2024G001",
      raised: ["Grid voltage fault", "Battery BMS communication lost"],
      foreign: "No grid connection",
    },
  ],
  [
    "a three-phase hybrid",
    {
      scenario: "three-phase",
      serial: "ST2024G001",
      raised: ["Grid phase 2 voltage low", "BMS communication fault"],
      foreign: "Backup overload",
    },
  ],
];

describe.each(CASES)("an inverter fault raised in the simulator on %s, over the LAN and over the cloud", (_, one) => {
  const SERIAL = one.serial;
  const DEVICE = SERIAL.toLowerCase();
  const RAISED = one.raised;
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let observer: Awaited<ReturnType<typeof observe>>;
  let pump: NodeJS.Timeout | undefined;
  const sides: Side[] = [];
  const dir = mkdtempSync(join(tmpdir(), "e2m-inverter-faults-"));

  const stateOf = async (side: Side, match: (state: Json) => boolean, since: number): Promise<Json> =>
    JSON.parse(
      (
        await observer.waitFor(
          (m) => m.topic === `${side.base}/${DEVICE}` && match(JSON.parse(m.payload) as Json),
          30_000,
          since,
        )
      ).payload,
    ) as Json;
  const logged = (side: Side, since: number): string[] =>
    observer.messages
      .filter((m) => m.topic === `${side.base}/bridge/logging` && m.at >= since)
      .map((m) => (JSON.parse(m.payload) as { message: string }).message)
      .filter((message) => message.includes("fault"));
  /** Until the shared clock (pumped) has moved on by `ms`: so many of the daemons' polls. */
  const simulated = (ms: number): Promise<void> => new Promise((resolve) => later(sim.simulator.clock, ms, resolve));
  const webFaults = async (side: Side): Promise<readonly string[] | undefined> => {
    const snapshot = (await (await fetch(new URL("api/now", side.app.webUrl))).json()) as LiveSnapshot;
    return snapshot.devices.find((device) => device.id === DEVICE)?.faults;
  };

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({
      ...(one.scenario === undefined ? {} : { scenario: one.scenario }),
      speed: 0,
      start: MIDDAY,
      localPort: 0,
      localResponseDelayMs: 0,
      requestsPerMinute: 100_000,
    });
    observer = await observe(broker.url, ["#"]);
    pump = setInterval(() => sim.simulator.clock.advance(1_000), TICK_MS);
    for (const name of ["cloud", "local"] as const) {
      const base = `e2m${process.pid}faults${name}${DEVICE}`;
      const prefix = `ha${process.pid}faults${name}${DEVICE}`;
      const feed = new LogFeed();
      const path =
        name === "cloud"
          ? { cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 } }
          : {
              source: "local",
              local: sim.simulator.dongles.map((dongle) => ({
                host: "127.0.0.1",
                port: dongle.port,
                gap_ms: SIM_GAP_MS,
              })),
            };
      const app = await startApp(
        configSchema.parse({
          ...path,
          mqtt: { url: broker.url, base_topic: base },
          homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
          poll: { inverter: "30s", events: "30s", local: "15s", inventory: "1h" },
          store: { path: join(dir, `${name}.db`) },
          web: { port: 0 },
          log: { level: "silent" },
        }),
        createLogger("warn", { destination: { write: () => true }, feed }),
        "0.0.0-test",
        { clock: sim.simulator.clock, feed },
      );
      sides.push({ name, app, base, prefix });
    }
    for (const side of sides) await stateOf(side, (state) => state.faults === "None", 0);
  }, 90_000);

  afterAll(async () => {
    clearInterval(pump);
    for (const side of sides) await side.app.stop();
    await observer?.close();
    await sim?.stop();
    await broker?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("announces the active faults' sensor and the problem binary sensor under the same unique_ids on both paths", async () => {
    for (const side of sides) {
      const config = (component: string, key: string): Json => {
        const topic = `${side.prefix}/${component}/${DEVICE}/${key}/config`;
        const message = observer.messages.findLast((m) => m.topic === topic && m.payload !== "");
        if (!message) throw new Error(`${side.name}: no ${topic}`);
        return JSON.parse(message.payload) as Json;
      };
      expect(config("sensor", "faults").unique_id, side.name).toBe(`energy2mqtt_${DEVICE}_faults`);
      expect(config("binary_sensor", "fault"), side.name).toMatchObject({
        unique_id: `energy2mqtt_${DEVICE}_fault`,
        device_class: "problem",
      });
    }
  });

  it("shows the raised faults in words on MQTT, on bridge/logging once each and on the web page, then clears all three", async () => {
    const raisedAt = Date.now();
    const raised = (await sim.admin(`/devices/${SERIAL}/faults`, { raise: RAISED })) as { data: { active: string[] } };
    expect(raised.data.active).toEqual(RAISED);

    for (const side of sides) {
      const state = await stateOf(side, (s) => s.fault === "ON", raisedAt);
      expect(String(state.faults).split(", ").sort(), side.name).toEqual([...RAISED].sort());
      expect(RAISED, side.name).toContain(state.latest_fault);
    }
    // More polls go by with the faults still active (four of the events' 30 s): each is said once.
    await simulated(120_000);
    for (const side of sides) {
      expect(logged(side, raisedAt).sort(), side.name).toEqual(
        RAISED.map((fault) => `inverter ${SERIAL}: fault "${fault}" appeared`).sort(),
      );
      expect([...((await webFaults(side)) ?? [])].sort(), side.name).toEqual([...RAISED].sort());
    }

    const clearedAt = Date.now();
    await sim.admin(`/devices/${SERIAL}/faults`, { clear: "all" });
    for (const side of sides) {
      const state = await stateOf(side, (s) => s.fault === "OFF", clearedAt);
      expect(state.faults, side.name).toBe("None");
    }
    await simulated(120_000);
    for (const side of sides) {
      expect(logged(side, clearedAt).sort(), side.name).toEqual(
        RAISED.map((fault) => `inverter ${SERIAL}: fault "${fault}" cleared`).sort(),
      );
      expect(await webFaults(side), side.name).toEqual([]);
    }
  }, 60_000);

  it("refuses a fault the inverter's registers have no words for, the other family's too", async () => {
    await expect(sim.admin(`/devices/${SERIAL}/faults`, { raise: ["Flux capacitor"] })).rejects.toThrow(/HTTP 422/);
    await expect(sim.admin(`/devices/${SERIAL}/faults`, { raise: [one.foreign] })).rejects.toThrow(/HTTP 422/);
  });
});
