import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOLDING_REFRESH_MS } from "../../../src/sources/local/holding-refresh.js";
import { startTestBroker, type TestBroker } from "../../helpers/broker.js";
import type { Recorded } from "../../helpers/ha-rules/recorder.js";
import { POLL_MS, type ReplayRun, startReplay } from "./replay-daemon.js";

/*
 * Issue 34: a Gen2 hybrid's dongle leaves its identity bank (HR 0-59) unanswered at the daemon's
 * start. The daemon tells the model from the banks that answer, runs the house, keeps asking HR 0
 * (as rarely as any missing block), and once it answers reads the model from it and stops asking.
 */

const ID = "ea2302g000";
const HR0 = { address: 0x11, function: 3, base: 0 } as const;

/** The model each announcement of the inverter gave, in order. */
const modelsOf = (messages: readonly Recorded[], prefix: string): string[] =>
  messages
    .filter((m) => m.topic.startsWith(`${prefix}/sensor/${ID}/`) && m.payload !== "")
    .map((m) => (JSON.parse(m.payload) as { device: { model?: string } }).device.model ?? "");

describe("the model told without HR 0, then read from it once it answers", () => {
  let broker: TestBroker;
  let run: ReplayRun;
  let whileSilent: Recorded[] = [];
  let askedWhileSilent = 0;

  beforeAll(async () => {
    broker = await startTestBroker();
    run = await startReplay("gen2", broker, "redetect", (dongle) => dongle.silence(HR0.address, HR0.function, 0, 60));
    await run.until(run.startedAt + 4 * 60_000);
    whileSilent = [...run.messages];
    askedWhileSilent = run.dongle.asked(HR0.address, HR0.function, HR0.base);
    run.dongle.answerAgain();
    await run.until(run.clock.now() + 6 * 60_000);
  }, 60_000);
  afterAll(async () => {
    await run?.stop();
    await broker?.stop();
  });

  it("announces the inverter from its other banks, with its live values, and keeps it fresh", () => {
    expect(modelsOf(whileSilent, run.prefix)[0]).toBe("Unknown");
    const state = JSON.parse(whileSilent.find((m) => m.topic === `${run.base}/${ID}`)?.payload ?? "{}");
    expect(state.battery_soc).toEqual(expect.any(Number));
    const health = JSON.parse(
      whileSilent.filter((m) => m.topic === `${run.base}/bridge/health`).at(-1)?.payload ?? "{}",
    );
    expect(health.devices?.[ID]?.stale).toBe(false);
    expect(health.devices?.[ID]?.last_poll_age_seconds).toBeLessThanOrEqual(POLL_MS / 1000);
  });

  it("asks HR 0 again while it is silent, far less often than every poll", () => {
    // 24 polls in these 4 minutes: twice before it counts missing, then after 1 and 2 minutes.
    expect(askedWhileSilent).toBeGreaterThanOrEqual(3);
    expect(askedWhileSilent).toBeLessThanOrEqual(5);
  });

  it("reads the model from HR 0 once it answers, and stops asking it every poll", () => {
    const answeredAt = run.dongle.requests.findIndex(
      (r) => r.address === HR0.address && r.function === HR0.function && r.base === 0 && r.answered !== "silent",
    );
    expect(answeredAt).toBeGreaterThan(0);
    const after = run.dongle.asked(HR0.address, HR0.function, HR0.base, answeredAt + 1);
    // Only as often as the calibration stage it holds is read again (HR 29): 36 polls in these 6 minutes.
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThanOrEqual(Math.ceil((6 * 60_000) / HOLDING_REFRESH_MS));
    expect(modelsOf(run.messages, run.prefix).at(-1)).toBe("Hybrid Gen2");
  });
});
