import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCheckCommand } from "../../src/commands/check.js";
import { systemClock } from "../../src/time/index.js";
import { capture } from "../helpers/capture.js";
import { indexCapture, ReplayDongle } from "../helpers/replay-dongle.js";
import { SIM_GAP_MS } from "../helpers/simulator.js";
import { type CaptureName, captureText } from "../local/captures.js";

/*
 * Issue 34: `check` on real dongles, each a capture served back (answering only what it holds).
 * It must say which blocks went unanswered and when the model was told without the identity bank.
 */
describe.concurrent("energy2mqtt check on captured dongles", () => {
  const dir = mkdtempSync(join(tmpdir(), "e2m-check-captures-"));
  const dongles: ReplayDongle[] = [];

  beforeAll(() => {
    for (const key of ["CONFIG", "CLOUD_URL", "CLOUD_TOKEN", "MQTT_URL", "SOURCE"])
      vi.stubEnv(`ENERGY2MQTT_${key}`, "");
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await Promise.all(dongles.map((dongle) => dongle.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** `check` against the capture held at its end; what it printed and its exit code. */
  async function checkOn(name: CaptureName, untimedSpanMs?: number) {
    const text = captureText(name);
    const spanMs = indexCapture(text, untimedSpanMs).spanMs;
    const dongle = new ReplayDongle({
      text,
      clock: systemClock,
      captureMsPerClockMs: 1,
      ...(untimedSpanMs === undefined ? {} : { spanMs: untimedSpanMs }),
      playhead: () => spanMs,
    });
    dongles.push(dongle);
    const port = await dongle.start();
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, `source: local\nlocal:\n  - { host: 127.0.0.1, port: ${port}, gap_ms: ${SIM_GAP_MS} }\n`);
    const out = capture();
    const err = capture();
    const code = await runCheckCommand({ config: file }, out.stream, err.stream);
    return { out: out.text(), err: err.text(), code, dongle };
  }

  it("names the blocks a three-phase's dongle left unanswered, and still passes", async () => {
    const { out, code } = await checkOn("threePhaseDetect");
    expect(out).toMatch(/reachable; Three-phase[^\n]*, serial TC2337G000/i);
    expect(out).toContain("these blocks did not answer: HR 246-298 at 0x11");
    expect(code).toBe(0);
  }, 30_000);

  it("says the HV Gen3's model was told from its banks when its identity bank never answered", async () => {
    const { out, code, dongle } = await checkOn("hvGen3", 120_000);
    expect(dongle.requests.some((r) => r.function === 3 && r.base === 0 && r.answered === "silent")).toBe(true);
    expect(out).toMatch(
      /reachable; HV Hybrid Gen3 \(told from its banks: its identity bank did not answer\), serial FG2444G000,[^\n]*; round trip \d+ ms/,
    );
    expect(code).toBe(0);
  }, 30_000);
});
