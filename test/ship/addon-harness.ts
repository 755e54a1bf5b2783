import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Handler, startHttpServer } from "../helpers/http-server.js";
import { type Exec, fakeCommand, runScript } from "./fake-command.js";

export const SUPERVISOR_TOKEN = "supervisor-secret-token";

export const MOSQUITTO = {
  host: "core-mosquitto",
  port: 1883,
  ssl: false,
  protocol: "3.1.1",
  username: "addons",
  password: "mosquitto-secret-password",
  addon: "core_mosquitto",
};

/** A Supervisor with the Mosquitto add-on's MQTT service and a time zone, or one without MQTT. */
export function supervisorHandler(mqtt: typeof MOSQUITTO | undefined): Handler {
  return (request) => {
    if (request.headers.authorization !== `Bearer ${SUPERVISOR_TOKEN}`)
      return { status: 401, body: { result: "error", message: "Unauthorized" } };
    if (request.url === "/info") return { status: 200, body: { result: "ok", data: { timezone: "Europe/London" } } };
    if (request.url === "/services/mqtt") {
      return mqtt
        ? { status: 200, body: { result: "ok", data: mqtt } }
        : { status: 400, body: { result: "error", message: "No mqtt service found" } };
    }
    return { status: 404, body: { result: "error", message: "not found" } };
  };
}

export interface AddonRun {
  readonly code: number | null;
  readonly stderr: string;
  readonly configDir: string;
  /** What the fake daemon was exec'd with; undefined when the script stopped before. */
  readonly seen: Exec | undefined;
  readonly requests: readonly { url: string; authorization: string | undefined }[];
}

/** Runs addon/run.mjs with `options` as /data/options.json against a fake Supervisor on loopback. */
export async function runAddon(
  options: Record<string, unknown>,
  setup: { mqtt?: typeof MOSQUITTO | undefined; configuration?: string } = { mqtt: MOSQUITTO },
): Promise<AddonRun> {
  const server = await startHttpServer(supervisorHandler(setup.mqtt));
  try {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "e2m-addon-")));
    const configDir = join(root, "config");
    mkdirSync(configDir);
    if (setup.configuration !== undefined) writeFileSync(join(configDir, "configuration.yaml"), setup.configuration);
    const optionsFile = join(root, "options.json");
    writeFileSync(optionsFile, JSON.stringify(options));
    const fake = fakeCommand();
    const result = await runScript(process.execPath, ["addon/run.mjs"], {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      SUPERVISOR_URL: server.url,
      SUPERVISOR_TOKEN,
      ENERGY2MQTT_ADDON_OPTIONS: optionsFile,
      ENERGY2MQTT_ADDON_CONFIG_DIR: configDir,
      ENERGY2MQTT_BIN: fake.path,
    });
    let seen: Exec | undefined;
    try {
      seen = fake.seen();
    } catch {
      seen = undefined;
    }
    const requests = server.requests.map((r) => ({ url: r.url, authorization: r.headers.authorization }));
    return { code: result.code, stderr: result.stderr, configDir, seen, requests };
  } finally {
    await server.close();
  }
}

/** The daemon's configuration environment: ENERGY2MQTT_* and TZ, without the test's own plumbing. */
export function daemonEnv(run: AddonRun): Record<string, string> {
  if (!run.seen) throw new Error(`the script did not start the daemon:\n${run.stderr}`);
  return Object.fromEntries(
    Object.entries(run.seen.env).filter(
      ([name]) => (name.startsWith("ENERGY2MQTT_") && name !== "ENERGY2MQTT_BIN") || name === "TZ",
    ),
  );
}
