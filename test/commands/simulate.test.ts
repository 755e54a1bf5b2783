import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { runSimulateCommand } from "../../src/commands/simulate.js";
import { capture } from "../helpers/capture.js";
import { driven, openSession } from "../simulator/local/read-dongle.js";

function cli(args: string[]) {
  return spawn(process.execPath, ["--import", "tsx", "test/helpers/cli-entry.ts", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Every simulator here starts at a stated instant, never the wall clock. */
const START = "2026-11-16T12:00:00Z";

describe("energy2mqtt simulate", () => {
  it("names a refused option by the flag the user typed (--local-port, as local scan does)", async () => {
    const err = capture();
    expect(await runSimulateCommand({ localPort: -1 }, capture().stream, err.stream)).toBe(2);
    expect(err.text()).toMatch(/^--local-port: /);
  });

  it("prints one JSON line with the URL and tokens, serves, and stops on SIGTERM", async () => {
    const child = cli(["simulate", "--port", "0", "--json", "--seed", "3", "--start", START]);
    const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
    const ready = JSON.parse(line) as { url: string; tokens: Record<string, string> };
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(Object.keys(ready.tokens).sort()).toEqual(["company", "engineer", "free", "owner", "readonly", "service"]);
    const response = await fetch(`${ready.url}/account`, {
      headers: { authorization: `Bearer ${ready.tokens.owner}` },
    });
    expect(response.status).toBe(200);
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
  });

  it("prints the tokens once and a hint that keeps them off the command line", async () => {
    const child = cli(["simulate", "--port", "0", "--seed", "3", "--start", START]);
    const lines: string[] = [];
    const reader = createInterface({ input: child.stdout });
    for await (const line of reader) {
      lines.push(line);
      if (line.includes("energy2mqtt api GET /account")) break;
    }
    child.kill("SIGTERM");
    await once(child, "exit");
    const owner = lines.find((line) => line.startsWith("token owner"))?.split(/\s+/)[2];
    expect(owner).toMatch(/\S{8,}/);
    const hint = lines.slice(lines.findIndex((line) => line.startsWith("try:")));
    expect(hint.join("\n")).toContain("export ENERGY2MQTT_CLOUD_TOKEN=");
    expect(hint.join("\n")).not.toContain(owner);
    expect(hint.at(-1)?.trim()).toBe("npx energy2mqtt api GET /account");
  });

  it("--local-port 0 opens a dongle per inverter, EMS and gateway on free ports and lists them", async () => {
    const child = cli([
      "simulate",
      "--port",
      "0",
      "--local-port",
      "0",
      "--json",
      "--scenario",
      "demo",
      "--start",
      START,
    ]);
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
      const ready = JSON.parse(line) as {
        dongles: { dongle_serial: string; device_serial: string; kind: string; host: string; port: number }[];
      };
      expect(ready.dongles.map((d) => [d.dongle_serial, d.device_serial, d.kind])).toEqual([
        ["WF2024D001", "SD2024G001", "inverter"],
        ["WE2024G101", "SE2024G101", "inverter"],
        ["WE2024G102", "SE2024G102", "inverter"],
        ["EM2024E001", "EM2024E001", "ems"],
      ]);
      expect(new Set(ready.dongles.map((d) => d.port)).size).toBe(4);
      const first = ready.dongles[0];
      if (!first) throw new Error("no dongle");
      expect(first.host).toBe("127.0.0.1");
      const { session, clock } = openSession(first.port);
      try {
        const [deviceType] = await driven(clock, session.read({ address: 0x11, function: 3, base: 0, count: 1 }));
        expect(deviceType).toBe(0x2001);
      } finally {
        session.close();
      }
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });

  it("gives the same tokens for the same seed", async () => {
    const tokensOf = async (seed: string) => {
      const child = cli(["simulate", "--port", "0", "--json", "--seed", seed, "--start", START]);
      const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
      child.kill("SIGINT");
      await once(child, "exit");
      return (JSON.parse(line) as { tokens: Record<string, string> }).tokens;
    };
    const [a, b, c] = await Promise.all([tokensOf("5"), tokensOf("5"), tokensOf("6")]);
    expect(a).toEqual(b);
    expect(a.owner).not.toBe(c.owner);
  });

  it("starts its clock at --start, and refuses an instant without its offset", async () => {
    const child = cli(["simulate", "--port", "0", "--json", "--start", "2026-06-21T13:00:00+01:00"]);
    const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
    const ready = JSON.parse(line) as { url: string; tokens: Record<string, string> };
    const response = await fetch(`${ready.url}/inverter/SD2024G001/system-data/latest`, {
      headers: { authorization: `Bearer ${ready.tokens.owner}` },
    });
    const body = (await response.json()) as { data: { time: string } };
    child.kill("SIGTERM");
    await once(child, "exit");
    expect(Date.parse(body.data.time) - Date.parse("2026-06-21T12:00:00Z")).toBeLessThan(60_000);
    expect(Date.parse(body.data.time)).toBeGreaterThanOrEqual(Date.parse("2026-06-21T11:55:00Z"));

    const bad = cli(["simulate", "--port", "0", "--start", "2026-06-21 13:00"]);
    let stderr = "";
    bad.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = (await once(bad, "exit")) as [number | null];
    expect(code).toBe(2);
    expect(stderr).toContain("--start: must be an ISO 8601 instant with its offset");
  });

  it("refuses a bad scenario file with exit code 2 and the field that is wrong", async () => {
    const dir = mkdtempSync(join(tmpdir(), "e2m-scenario-"));
    const file = join(dir, "bad.yaml");
    writeFileSync(
      file,
      "accounts:\n  - id: 1\n    username: me\n    type: wizard\nactors:\n  - name: me\n    account: me\n",
    );
    const child = cli(["simulate", "--port", "0", "--scenario", file, "--start", START]);
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(2);
    expect(stderr).toContain("accounts.0.type");
  });
});
