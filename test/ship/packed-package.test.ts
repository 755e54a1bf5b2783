import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { createInterface } from "node:readline";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { childOutput } from "../helpers/child-output.js";
import { settingsFreeEnv } from "../helpers/settings-free-env.js";

/**
 * The package as a user gets it from the registry: `npm pack` (which runs `prepare`, the build,
 * as `npm publish` does), then the tarball installed into an empty prefix with production
 * dependencies only. Then the installed command itself: --version, simulate, and the demo `run`.
 *
 * better-sqlite3's install script runs there as on a user's machine, where prebuild-install
 * fetches the prebuilt binary for the machine's Node. Its download from GitHub cannot be reached
 * here, so it is handed this checkout's own binary as a local prebuild (prebuild-install's
 * npm_config_<package>_local_prebuilds): compiling it again took 90 to 140 s of a core in the
 * middle of the suite, and `npm ci` has compiled it from source already. Without that binary the
 * install compiles it, as before.
 */

const VERSION = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
const packResult = z.array(z.object({ filename: z.string(), files: z.array(z.object({ path: z.string() })) }));

/** Runs a command to its end; rejects with its output when it fails. */
function exec(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const child = spawn(command, [...args], { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  return childOutput(child).then(({ code, stdout, stderr }) => {
    if (code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${code}:\n${stderr}`);
    return stdout;
  });
}

/**
 * prebuild-install's setting pointing at a folder that holds this checkout's better-sqlite3
 * binary, packed as its release names it; none when the checkout has no built binary.
 */
function betterSqlitePrebuild(dir: string): Record<string, string> {
  const module = join("node_modules", "better-sqlite3");
  const binary = join("build", "Release", "better_sqlite3.node");
  if (!existsSync(join(module, binary))) return {};
  const { version } = z
    .object({ version: z.string() })
    .parse(JSON.parse(readFileSync(join(module, "package.json"), "utf8")));
  const folder = join(dir, "prebuilds");
  mkdirSync(folder, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync("tar", ["-czf", join(folder, name), "-C", module, binary]);
  return { npm_config_better_sqlite3_local_prebuilds: folder };
}

/** The first stdout line that matches, within the timeout. */
async function lineMatching(child: ChildProcess, match: (line: string) => boolean, timeoutMs: number) {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const seen: string[] = [];
  const timer = setTimeout(() => lines.close(), timeoutMs);
  try {
    for await (const line of lines) {
      seen.push(line);
      if (match(line)) return { line, seen };
    }
  } finally {
    clearTimeout(timer);
  }
  throw new Error(`no matching line within ${timeoutMs} ms; saw:\n${seen.join("\n")}`);
}

describe("the packed package, installed with production dependencies only", () => {
  const dir = mkdtempSync(join(tmpdir(), "e2m-packed-"));
  const prefix = join(dir, "prefix");
  const bin = join(prefix, "node_modules", ".bin", "energy2mqtt");
  let packed: string[] = [];
  const children: ChildProcess[] = [];

  /** The installed command, with the Node that runs the tests first on PATH and no settings from this machine. */
  const start = (args: readonly string[], cwd: string) => {
    const env = settingsFreeEnv();
    // The demo house at a stated instant, never the wall clock's.
    env.ENERGY2MQTT_DEMO_START = "2026-11-16T12:00:00Z";
    env.PATH = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ""}`;
    const child = spawn(bin, [...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    return { child, stderr: () => stderr };
  };

  beforeAll(async () => {
    mkdirSync(prefix);
    const started = performance.now();
    const output = await exec("npm", ["pack", "--json", "--pack-destination", dir]);
    // npm prints the build's output before its JSON.
    const [result] = packResult.parse(JSON.parse(output.slice(output.indexOf("["))));
    packed = result?.files.map((file) => file.path) ?? [];
    const tarball = join(dir, result?.filename ?? "");
    const packedAt = performance.now();
    await exec(
      "npm",
      ["install", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline", "--prefix", prefix, tarball],
      { env: { ...process.env, ...betterSqlitePrebuild(dir) } },
    );
    console.info(
      `[packed package] npm pack ${((packedAt - started) / 1000).toFixed(0)} s, npm install ${((performance.now() - packedAt) / 1000).toFixed(0)} s`,
    );
  }, 15 * 60_000);

  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("packs what runs: the command, the compiled code with the simulator's data, the example configuration", () => {
    for (const file of [
      "bin/energy2mqtt.js",
      "dist/cli/main.js",
      "dist/cli/memory.js",
      "dist/local/data/inverter-settings.gen3-hybrid.json",
      "dist/web/public/index.html",
      "dist/web/public/app.js",
      "dist/web/public/app.css",
      "config/configuration.example.yaml",
      "config/secrets.example.yaml",
      "package.json",
    ])
      expect(packed, file).toContain(file);
    expect(packed.filter((file) => /^(src|test|bench|node_modules|data)\//.test(file))).toEqual([]);
    expect(packed).not.toContain("config/configuration.yaml");
    expect(packed).not.toContain("config/secrets.yaml");
  });

  it("installs the production dependencies only, with better-sqlite3 built for this machine", () => {
    const modules = readdirSync(join(prefix, "node_modules"));
    expect(modules).toContain("better-sqlite3");
    for (const dev of ["typescript", "vitest", "tsx", "@biomejs", "testcontainers"]) expect(modules).not.toContain(dev);
    expect(existsSync(join(prefix, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node"))).toBe(
      true,
    );
  });

  it("answers --version with the package's version", async () => {
    const { child } = start(["--version"], dir);
    const { line } = await lineMatching(child, () => true, 20_000);
    expect(line).toBe(VERSION);
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
  }, 30_000);

  it("serves the simulator: `simulate --port 0 --json` prints its URL and tokens, and the URL answers", async () => {
    const { child } = start(["simulate", "--port", "0", "--json", "--start", "2026-11-16T12:00:00Z"], dir);
    const { line } = await lineMatching(child, (text) => text.startsWith("{"), 30_000);
    const ready = z.object({ url: z.string(), tokens: z.record(z.string(), z.string()) }).parse(JSON.parse(line));
    const response = await fetch(`${ready.url}/account`, {
      headers: { Authorization: `Bearer ${ready.tokens.owner}` },
    });
    expect(response.status).toBe(200);
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
  }, 60_000);

  it("runs the demo: the banner's broker has the bridge online, and SIGTERM ends it within 2 s", async () => {
    const cwd = mkdtempSync(join(dir, "demo-"));
    const { child, stderr } = start(["run"], cwd);
    const startedAt = performance.now();
    const { seen } = await lineMatching(child, (line) => line.trim().startsWith("Home Assistant:"), 90_000);
    const bannerAt = performance.now();
    const watch = seen.find((line) => line.includes("mosquitto_sub")) ?? "";
    const [, host, port] = /-h (\S+) -p (\d+)/.exec(watch) ?? [];
    expect(port, seen.join("\n")).toMatch(/^\d+$/);
    const client = await mqtt.connectAsync(`mqtt://${host}:${port}`, { reconnectPeriod: 0 });
    try {
      const online = new Promise<string>((resolve) =>
        client.on("message", (topic, payload) => {
          if (topic === "energy2mqtt/bridge/state") resolve(payload.toString());
        }),
      );
      await client.subscribeAsync("energy2mqtt/bridge/state");
      expect(JSON.parse(await online)).toEqual({ state: "online" });
    } finally {
      await client.endAsync(true);
    }
    // The demo's own store, beside where the configuration puts a real account's (relative to the
    // folder the command runs in), so that its rows never mix with an account's.
    expect(existsSync(join(cwd, "data", "demo.db"))).toBe(true);
    expect(existsSync(join(cwd, "data", "energy2mqtt.db"))).toBe(false);

    const stopAt = performance.now();
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    const stoppedIn = performance.now() - stopAt;
    console.info(
      `[packed package] demo run: banner after ${((bannerAt - startedAt) / 1000).toFixed(1)} s, stopped ${stoppedIn.toFixed(0)} ms after SIGTERM`,
    );
    expect(code, stderr()).toBe(0);
    // The daemon promises to stop within 2 seconds.
    expect(stoppedIn).toBeLessThan(2000);
  }, 120_000);
});
