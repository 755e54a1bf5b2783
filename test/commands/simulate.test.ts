import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { driven, openSession } from "../simulator/local/read-dongle.js";

function cli(args: string[]) {
  return spawn(process.execPath, ["--import", "tsx", "test/helpers/cli-entry.ts", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("energy2mqtt simulate", () => {
  it("prints one JSON line with the URL and tokens, serves, and stops on SIGTERM", async () => {
    const child = cli(["simulate", "--port", "0", "--json", "--seed", "3"]);
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

  it("--local-port 0 opens a dongle per inverter, EMS and gateway on free ports and lists them", async () => {
    const child = cli(["simulate", "--port", "0", "--local-port", "0", "--json", "--scenario", "demo"]);
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
      const child = cli(["simulate", "--port", "0", "--json", "--seed", seed]);
      const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
      child.kill("SIGINT");
      await once(child, "exit");
      return (JSON.parse(line) as { tokens: Record<string, string> }).tokens;
    };
    const [a, b, c] = await Promise.all([tokensOf("5"), tokensOf("5"), tokensOf("6")]);
    expect(a).toEqual(b);
    expect(a.owner).not.toBe(c.owner);
  });

  it("refuses a bad scenario file with exit code 2 and the field that is wrong", async () => {
    const dir = mkdtempSync(join(tmpdir(), "e2m-scenario-"));
    const file = join(dir, "bad.yaml");
    writeFileSync(
      file,
      "accounts:\n  - id: 1\n    username: me\n    type: wizard\nactors:\n  - name: me\n    account: me\n",
    );
    const child = cli(["simulate", "--port", "0", "--scenario", file]);
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(2);
    expect(stderr).toContain("accounts.0.type");
  });
});
