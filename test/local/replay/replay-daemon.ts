import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type App, startApp } from "../../../src/app/index.js";
import { configSchema } from "../../../src/config/index.js";
import { createLogger } from "../../../src/log/log.js";
import { SimClock } from "../../../src/simulator/clock.js";
import { later } from "../../../src/time/index.js";
import type { TestBroker } from "../../helpers/broker.js";
import { type Recorded, recordMqtt } from "../../helpers/ha-rules/recorder.js";
import { indexCapture, ReplayDongle } from "../../helpers/replay-dongle.js";
import { SIM_GAP_MS } from "../../helpers/simulator.js";
import { type CaptureName, captureText } from "../captures.js";

/** The daemon's own instant at start: a fixed one, so nothing depends on the day or the hour it runs. */
export const REPLAY_START = Date.UTC(2026, 10, 16, 12);
/** Simulated ms a real ms: a 10 s poll in 1/60 s, a 5 s request timeout in 83 ms. */
const SPEED = 60;
/** The daemon's live poll, simulated. */
export const POLL_MS = 10_000;
/** The energy counters' poll (poll.meter), simulated: they are read from the last live poll's registers at this pace. */
export const METER_MS = 60_000;
/** At most this much of the daemon's time per capture: a longer capture is played faster through it. */
const MAX_RUN_MS = 2 * 60_000;
/** Spans of the captures whose lines carry no times (the captures' README). */
const UNTIMED_SPAN_MS: Partial<Record<CaptureName, number>> = { hvGen3: 120_000, threePhaseHass: 180_000 };

export interface ReplayRun {
  readonly app: App;
  readonly dongle: ReplayDongle;
  readonly clock: SimClock;
  readonly messages: Recorded[];
  readonly base: string;
  readonly prefix: string;
  /** The daemon's clock when start-up finished. */
  readonly startedAt: number;
  /** Daemon ms in which the whole capture is played. */
  readonly runMs: number;
  /** Waits until the daemon's running clock reaches `at` (a timer on that clock). */
  until(at: number): Promise<void>;
  /** Stops the daemon (what SIGTERM does in `run`), then the dongle and the recorder. */
  stop(): Promise<void>;
}

/** The daemon with `source: local` against a dongle that answers from the capture alone. */
export async function startReplay(
  name: CaptureName,
  broker: TestBroker,
  tag: string,
  beforeStart?: (dongle: ReplayDongle) => void,
): Promise<ReplayRun> {
  const clock = new SimClock({ start: REPLAY_START, speed: SPEED });
  const text = captureText(name);
  const spanMs = indexCapture(text, UNTIMED_SPAN_MS[name]).spanMs;
  const runMs = Math.min(MAX_RUN_MS, Math.max(POLL_MS * 3, spanMs));
  const ratio = spanMs / runMs;
  const dongle = new ReplayDongle({
    text,
    clock,
    captureMsPerClockMs: ratio,
    ...(UNTIMED_SPAN_MS[name] ? { spanMs: UNTIMED_SPAN_MS[name] } : {}),
    // The capture's end is held once reached, so the last polls all read the same registers.
    playhead: () => Math.min(spanMs, (clock.now() - REPLAY_START) * ratio),
  });
  beforeStart?.(dongle);
  const port = await dongle.start();
  const base = `e2m${process.pid}${tag}`;
  const prefix = `ha${process.pid}${tag}`;
  const recorder = await recordMqtt(broker.url, [`${base}/#`, `${prefix}/#`]);
  const dir = mkdtempSync(join(tmpdir(), `e2m-replay-${tag}-`));
  const app = await startApp(
    configSchema.parse({
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
      poll: { inventory: "1h", local: `${POLL_MS / 1000}s`, meter: `${METER_MS / 1000}s` },
      store: { path: join(dir, "replay.db") },
      web: { enabled: false },
      source: "local",
      timezone: "Europe/London",
      local: [{ host: "127.0.0.1", port }],
    }),
    createLogger(process.env.E2M_TEST_LOG ?? "silent"),
    "0.0.0-test",
    { clock },
  );
  const started = clock.now();
  return {
    app,
    dongle: dongle,
    clock,
    messages: recorder.messages,
    base,
    prefix,
    startedAt: started,
    runMs,
    async until(at) {
      if (clock.now() < at) await new Promise<void>((resolve) => later(clock, at - clock.now(), resolve));
    },
    async stop() {
      await app.stop();
      await dongle.stop();
      await recorder.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The device's state messages, parsed, in order. */
export function statesOf(messages: readonly Recorded[], topic: string): Record<string, unknown>[] {
  return messages
    .filter((m) => m.topic === topic && m.payload !== "")
    .map((m) => JSON.parse(m.payload) as Record<string, unknown>);
}

/** `energy2mqtt run`'s configuration with `source: local` on one dongle at 127.0.0.1 (DIR: the process's folder). */
export function localDaemonYaml(brokerUrl: string, base: string, port: number, store: string): string {
  return [
    `mqtt: { url: "${brokerUrl}", base_topic: ${base} }`,
    `homeassistant: { discovery_prefix: ha${base} }`,
    `store: { path: DIR/${store} }`,
    "web: { enabled: false }",
    "log: { level: warn }",
    "source: local",
    "timezone: Europe/London",
    `local: [{ host: 127.0.0.1, port: ${port}, gap_ms: ${SIM_GAP_MS} }]`,
    "",
  ].join("\n");
}
