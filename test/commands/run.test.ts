import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { startTestSimulator } from "../helpers/simulator.js";

function run(config: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/cli-entry.ts", "run", "-c", config], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { child, stderr: () => stderr };
}

function writeConfig(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), "e2m-run-"));
  const file = join(dir, "configuration.yaml");
  writeFileSync(file, yaml.replaceAll("DIR", dir));
  return file;
}

describe("energy2mqtt run", () => {
  let broker: TestBroker;
  beforeAll(async () => {
    broker = await startTestBroker();
  });
  afterAll(async () => {
    await broker?.stop();
  });

  it("starts on the built-in simulator at demo.start, says how to watch it, and exits 0 within 2 s of SIGTERM", async () => {
    const config = writeConfig(
      `mqtt:\n  url: ${broker.url}\nstore:\n  path: DIR/e2m.db\nlog:\n  level: warn\ndemo:\n  start: "2026-11-16T12:00:00Z"\n`,
    );
    const { child } = run(config);
    const lines = createInterface({ input: child.stdout });
    const seen: string[] = [];
    for await (const line of lines) {
      seen.push(line);
      if (line.trim().startsWith("Home Assistant:")) break;
    }
    expect(seen.join("\n")).toContain("the built-in simulator");
    // demo.start pins the house to a November noon, whatever the hour this runs at: the sun shines.
    const observer = await observe(broker.url, ["energy2mqtt/sd2024g001"]);
    try {
      const state = await observer.waitFor((m) => m.topic === "energy2mqtt/sd2024g001", 15_000);
      expect((JSON.parse(state.payload) as { solar_power: number }).solar_power).toBeGreaterThan(0);
    } finally {
      await observer.close();
    }
    expect(seen.join("\n")).toMatch(/mosquitto_sub -h 127\.0\.0\.1 -p \d+ -t 'energy2mqtt\/#' -v/);
    const started = Date.now();
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(2000);
  }, 30_000);

  it("stops with exit code 2 and a clear message when the token is refused", async () => {
    const sim = await startTestSimulator({ speed: 0 });
    try {
      const config = writeConfig(
        `cloud:\n  url: ${sim.simulator.url}\n  token: not-a-token\nmqtt:\n  url: ${broker.url}\nstore:\n  path: DIR/e2m.db\nlog:\n  level: silent\n`,
      );
      const { child, stderr } = run(config);
      const [code] = (await once(child, "exit")) as [number | null];
      expect(code).toBe(2);
      expect(stderr()).toContain("API tokens");
      expect(stderr()).not.toContain("not-a-token");
    } finally {
      await sim.stop();
    }
  }, 30_000);

  it("refuses a bad configuration with the file, line and key, exit code 2", async () => {
    const config = writeConfig("poll:\n  inverter: 60s\n  ev_charger: often\n");
    const { child, stderr } = run(config);
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(2);
    expect(stderr()).toMatch(/configuration\.yaml:3: poll\.ev_charger: "often" is not a duration/);
  }, 30_000);

  it("refuses a bad rules file with its file and line, exit code 2", async () => {
    const config = writeConfig(
      `mqtt:\n  url: ${broker.url}\nstore:\n  path: DIR/e2m.db\nrules: rules.yaml\nlog:\n  level: silent\n`,
    );
    writeFileSync(
      join(config, "..", "rules.yaml"),
      'tariffs:\n  import: { type: fixed, price: 0.25 }\nrules:\n  - name: night\n    when: { cron: "not a cron" }\n    do:\n      - notify: { title: "Hello there world", body: "A body of at least twenty characters" }\n',
    );
    const { child, stderr } = run(config);
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(2);
    expect(stderr()).toMatch(/rules\.yaml:5: rules\.0\.when\.cron: "not a cron" is not a cron expression/);
  }, 30_000);
});
