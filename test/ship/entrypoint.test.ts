import { mkdtempSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fakeCommand, runScript } from "./fake-command.js";

const SCRIPT = "docker/entrypoint.sh";

/** Runs the entrypoint with a temporary folder standing in for /data and a fake daemon. */
async function entrypoint(args: string[], options: { config?: string; env?: Record<string, string> } = {}) {
  const data = realpathSync(mkdtempSync(join(tmpdir(), "e2m-data-")));
  if (options.config !== undefined) writeFileSync(join(data, "configuration.yaml"), options.config);
  const fake = fakeCommand();
  const result = await runScript("/bin/sh", [SCRIPT, ...args], {
    PATH: "/usr/bin:/bin",
    ENERGY2MQTT_DATA_DIR: data,
    ENERGY2MQTT_BIN: fake.path,
    ...options.env,
  });
  expect(result.code).toBe(0);
  return { data, result, seen: fake.seen() };
}

const energy2mqttEnv = (env: Readonly<Record<string, string>>) =>
  Object.fromEntries(
    Object.entries(env).filter(([name]) => name.startsWith("ENERGY2MQTT_") && name !== "ENERGY2MQTT_BIN"),
  );

describe("the image's entrypoint", () => {
  it("is executable (the Dockerfile copies it as the ENTRYPOINT)", () => {
    expect(statSync(SCRIPT).mode & 0o111).toBe(0o111);
  });

  it("runs the daemon on /data/configuration.yaml when there is one, in /data, leaving the file's store path alone", async () => {
    const { data, seen, result } = await entrypoint(["run"], { config: "log:\n  level: info\n" });
    expect(seen.argv).toEqual(["run", "-c", `${data}/configuration.yaml`]);
    expect(energy2mqttEnv(seen.env)).toEqual({ ENERGY2MQTT_DATA_DIR: data });
    expect(seen.cwd).toBe(data);
    // exec, not a child: the daemon has the shell's pid, so tini's SIGTERM reaches it.
    expect(seen.pid).toBe(result.pid);
    expect(result.stderr).toBe("");
  });

  it("runs the embedded demo with the store on the volume when there is no configuration", async () => {
    const { data, seen, result } = await entrypoint(["run"]);
    expect(seen.argv).toEqual(["run"]);
    expect(energy2mqttEnv(seen.env)).toEqual({
      ENERGY2MQTT_DATA_DIR: data,
      ENERGY2MQTT_STORE_PATH: `${data}/energy2mqtt.db`,
    });
    expect(seen.pid).toBe(result.pid);
    expect(result.stderr).toContain(`no ${data}/configuration.yaml; starting the embedded demo`);
  });

  it("keeps a store path the user set for the demo", async () => {
    const { seen } = await entrypoint(["run"], { env: { ENERGY2MQTT_STORE_PATH: "/elsewhere/e2m.db" } });
    expect(seen.env.ENERGY2MQTT_STORE_PATH).toBe("/elsewhere/e2m.db");
  });

  it("passes any other command straight to the CLI", async () => {
    const { seen } = await entrypoint(["api", "GET", "/account"], { config: "{}\n" });
    expect(seen.argv).toEqual(["api", "GET", "/account"]);
    const run = await entrypoint(["run", "-c", "/data/other.yaml"], { config: "{}\n" });
    expect(run.seen.argv).toEqual(["run", "-c", "/data/other.yaml"]);
  });
});
