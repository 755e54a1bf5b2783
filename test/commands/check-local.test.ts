import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCheckCommand } from "../../src/commands/check.js";
import { freePort } from "../helpers/broker.js";
import { capture } from "../helpers/capture.js";
import { MIDDAY, SIM_GAP_MS, startTestSimulator } from "../helpers/simulator.js";

/** `check` on a LAN-only configuration: each dongle of the simulated house on 127.0.0.1, and one port where nothing listens. */
describe("energy2mqtt check reports each dongle on the LAN", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  const dir = mkdtempSync(join(tmpdir(), "e2m-check-local-"));

  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: MIDDAY, localPort: 0, localResponseDelayMs: 0 });
    for (const key of ["CONFIG", "CLOUD_URL", "CLOUD_TOKEN", "MQTT_URL", "SOURCE"])
      vi.stubEnv(`ENERGY2MQTT_${key}`, "");
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const write = (name: string, ports: readonly number[]): string => {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(
      file,
      [
        "source: local",
        "local:",
        ...ports.map((port) => `  - { host: 127.0.0.1, port: ${port}, gap_ms: ${SIM_GAP_MS} }`),
        "",
      ].join("\n"),
    );
    return file;
  };

  it("reachable, model, serial and round trip for each; one that does not answer is named with what to check", async () => {
    const hybrid = sim.simulator.dongles.find((dongle) => dongle.deviceSerial === "SD2024G001");
    const ems = sim.simulator.dongles.find((dongle) => dongle.deviceSerial === "EM2024E001");
    if (!hybrid || !ems) throw new Error("the demo house lacks its dongles");
    const nobody = await freePort();
    const out = capture();
    const err = capture();
    const code = await runCheckCommand(
      { config: write("lan", [hybrid.port, ems.port, nobody]) },
      out.stream,
      err.stream,
    );
    expect(out.text()).toMatch(
      new RegExp(
        `local\\[0\\]: 127\\.0\\.0\\.1:${hybrid.port}: reachable; Hybrid Gen1, serial SD2024G001, dongle WF2024D001, 1 battery module\\(s\\); round trip \\d+ ms`,
      ),
    );
    expect(out.text()).toMatch(
      new RegExp(
        `local\\[1\\]: 127\\.0\\.0\\.1:${ems.port}: reachable; EMS, serial EM2024E001, dongle \\w+, 0 battery module\\(s\\); round trip \\d+ ms`,
      ),
    );
    expect(out.text()).toContain(
      "cloud: none configured; `energy2mqtt run` reads the dongles under local:, and changes the inverters' settings and presets over them",
    );
    expect(out.text()).not.toContain("refuses changes");
    // The search for LV packs ends at the first address that is silent: no block of the device's.
    expect(out.text()).not.toContain("did not answer");
    expect(err.text()).toContain(`local[2]: 127.0.0.1:${nobody}: not reachable (`);
    expect(err.text()).toContain("check its host and port");
    // One dongle answered: `run` can start, and keeps retrying the other.
    expect(code).toBe(0);
  }, 30_000);

  it("exits 1 when source is local and no dongle answers", async () => {
    const err = capture();
    const code = await runCheckCommand({ config: write("none", [await freePort()]) }, capture().stream, err.stream);
    expect(err.text()).toContain("not reachable");
    expect(code).toBe(1);
  }, 30_000);
});
