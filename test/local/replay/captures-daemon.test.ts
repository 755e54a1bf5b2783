import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChainDecoder, type DecodedDevice, parseFrame } from "../../../src/local/index.js";
import { startTestBroker, type TestBroker } from "../../helpers/broker.js";
import { replayHomeAssistant } from "../../helpers/ha-rules/index.js";
import { replayAnswer } from "../../helpers/replay-dongle.js";
import { CAPTURE_FILES, type CaptureName } from "../captures.js";
import { METER_MS, POLL_MS, type ReplayRun, startReplay, statesOf } from "./replay-daemon.js";

/*
 * Issue 34: the daemon itself, `source: local`, against each real capture served back as a dongle
 * that answers only what the capture holds (test/helpers/replay-dongle.ts). The whole capture is
 * played while the daemon runs (a long one faster, through at most two of the daemon's simulated
 * minutes); its end is then held for a counters' poll and two live polls, so the last state can be
 * set against the registers the dongle last served.
 */

/** The controller each capture's dongle serves, as the capture's frames name it and the public maps classify it. */
const EXPECTED: Record<CaptureName, { serial: string; model: string; kind: "inverter" | "ems" }> = {
  aio612: { serial: "CH2414G000", model: "All-in-One", kind: "inverter" },
  aio620: { serial: "CH2414G000", model: "All-in-One", kind: "inverter" },
  ac1x: { serial: "CE2231G000", model: "AC-coupled", kind: "inverter" },
  ac2x: { serial: "CE2231G000", model: "AC-coupled", kind: "inverter" },
  ems30: { serial: "EMS2522000", model: "EMS", kind: "ems" },
  ems60s: { serial: "EMS2522000", model: "EMS", kind: "ems" },
  gatewayDay: { serial: "GW2412G000", model: "Gateway", kind: "inverter" },
  gatewayNight: { serial: "GW2412G000", model: "Gateway", kind: "inverter" },
  hybridPoll: { serial: "SA2114G000", model: "Hybrid Gen1", kind: "inverter" },
  hybrid60: { serial: "SA2114G000", model: "Hybrid Gen1", kind: "inverter" },
  gen2: { serial: "EA2302G000", model: "Hybrid Gen2", kind: "inverter" },
  hvGen3: { serial: "FG2444G000", model: "HV Hybrid Gen3", kind: "inverter" },
  threePhase10: { serial: "TC2337G000", model: "Three-phase hybrid", kind: "inverter" },
  threePhaseDetect: { serial: "TC2337G000", model: "Three-phase hybrid", kind: "inverter" },
  threePhaseHass: { serial: "TC2337G000", model: "Three-phase hybrid", kind: "inverter" },
};

/** What the dongle served at the capture's held end, for every block the daemon asked that got an answer, decoded. */
function servedAtEnd(run: ReplayRun, serial: string): DecodedDevice | undefined {
  const decoder = new ChainDecoder();
  const { index } = run.dongle;
  const asked = new Map(run.dongle.requests.map((r) => [`${r.address}/${r.function}/${r.base}/${r.count}`, r]));
  for (const request of asked.values()) {
    const answer = replayAnswer(index, request, index.spanMs);
    if (answer) decoder.accept(parseFrame(answer.bytes));
  }
  return decoder.devices().find((device) => device.serial === serial);
}

let broker: TestBroker;
beforeAll(async () => {
  broker = await startTestBroker();
}, 30_000);
afterAll(async () => {
  await broker?.stop();
});

describe.each(Object.keys(CAPTURE_FILES) as CaptureName[])("the daemon on the real capture %s", (name) => {
  const expected = EXPECTED[name];
  let run: ReplayRun;
  let failure: unknown;

  beforeAll(async () => {
    try {
      run = await startReplay(name, broker, name.toLowerCase());
    } catch (error) {
      failure = error;
    }
  }, 60_000);
  afterAll(async () => {
    await run?.stop();
  });

  it("starts, and finds the controller the capture's frames name", () => {
    expect(failure).toBeUndefined();
    const devices = expected.kind === "ems" ? run.app.inventory.ems : run.app.inventory.inverters;
    expect(devices.map((device) => [device.serial, device.model])).toContainEqual([expected.serial, expected.model]);
  });

  it("announces it with its state within one poll cycle", async () => {
    const id = expected.serial.toLowerCase();
    await run.until(run.startedAt + POLL_MS);
    const configs = run.messages.filter((m) => m.topic.startsWith(`${run.prefix}/`) && m.topic.includes(`/${id}/`));
    expect(configs.length).toBeGreaterThan(5);
    const states = statesOf(run.messages, `${run.base}/${id}`);
    expect(states.length).toBeGreaterThan(0);
  }, 30_000);

  it("keeps running through the whole capture, the device fresh at its end", async () => {
    const id = expected.serial.toLowerCase();
    // Past the capture's end by a counters' poll and two live polls: every value published last was read at the held end.
    await run.until(run.startedAt + run.runMs + METER_MS + 2 * POLL_MS);
    const polled = run.dongle.requests.length;
    await run.until(run.clock.now() + POLL_MS + 1_000);
    expect(run.dongle.requests.length).toBeGreaterThan(polled);
    const health = run.messages.filter((m) => m.topic === `${run.base}/bridge/health`).at(-1);
    const device = (JSON.parse(health?.payload ?? "{}") as { devices?: Record<string, { stale: boolean }> }).devices?.[
      id
    ];
    expect(device?.stale).toBe(false);
    expect(run.messages.filter((m) => m.topic === `${run.base}/${id}/availability`).at(-1)?.payload).toBe("online");
  }, 60_000);

  it("publishes every value it has as the registers the dongle served decode to", () => {
    const id = expected.serial.toLowerCase();
    const last = statesOf(run.messages, `${run.base}/${id}`).at(-1) ?? {};
    const served = servedAtEnd(run, expected.serial);
    expect(served).toBeDefined();
    const compared: string[] = [];
    const differ: string[] = [];
    for (const [key, value] of Object.entries(served?.state ?? {})) {
      const published = last[key];
      if (typeof value !== "number" || published === undefined) continue;
      compared.push(key);
      // Today's consumption is balanced from five rounded counters and held when the balance dips within
      // a day (the captured Gen1's fell from 9.1 to 8.8 kWh at midday as PV and charge rose alike): never below it.
      const held = key === "today_consumption_energy" ? 0.25 : 0;
      if (typeof published !== "number" || published - value < -0.051 || published - value > 0.051 + held)
        differ.push(`${key}: published ${JSON.stringify(published)}, registers ${value}`);
    }
    expect(differ).toEqual([]);
    expect(compared.length).toBeGreaterThan(3);
  });

  it("leaves Home Assistant nothing to log", async () => {
    await run.app.stop();
    const result = replayHomeAssistant(run.messages, {
      discoveryPrefix: run.prefix,
      statusTopic: `${run.prefix}/status`,
    });
    expect(result.findings.map((f) => `${f.rule} ${f.key ?? ""}: ${f.message}`)).toEqual([]);
  });
});
