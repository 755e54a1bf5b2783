// The add-on's start script: reads the options set in the Home Assistant UI, takes the broker
// from the Supervisor's MQTT service when the user set none, sets the time zone, and execs the
// daemon. Plain Node (no bashio): the image already has Node, and this stays testable.
// It never prints a token or a password.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";

const env = process.env;
const OPTIONS_FILE = env.ENERGY2MQTT_ADDON_OPTIONS ?? "/data/options.json";
const CONFIG_DIR = env.ENERGY2MQTT_ADDON_CONFIG_DIR ?? "/config";
const SUPERVISOR = (env.SUPERVISOR_URL ?? "http://supervisor").replace(/\/+$/, "");
const BIN = env.ENERGY2MQTT_BIN ?? "/usr/local/bin/energy2mqtt";

/** Add-on option → ENERGY2MQTT_<SECTION>_<KEY>; the tests check each lands on a real configuration key. */
const OPTION_ENV = {
  cloud_url: "ENERGY2MQTT_CLOUD_URL",
  cloud_token: "ENERGY2MQTT_CLOUD_TOKEN",
  cloud_requests_per_minute: "ENERGY2MQTT_CLOUD_REQUESTS_PER_MINUTE",
  poll_inverter: "ENERGY2MQTT_POLL_INVERTER",
  poll_meter: "ENERGY2MQTT_POLL_METER",
  poll_ems: "ENERGY2MQTT_POLL_EMS",
  poll_ev_charger: "ENERGY2MQTT_POLL_EV_CHARGER",
  log_level: "ENERGY2MQTT_LOG_LEVEL",
  log_format: "ENERGY2MQTT_LOG_FORMAT",
  rules_file: "ENERGY2MQTT_RULES",
  dry_run: "ENERGY2MQTT_DRY_RUN",
  mqtt_url: "ENERGY2MQTT_MQTT_URL",
  mqtt_username: "ENERGY2MQTT_MQTT_USERNAME",
  mqtt_password: "ENERGY2MQTT_MQTT_PASSWORD",
  mqtt_base_topic: "ENERGY2MQTT_MQTT_BASE_TOPIC",
  discovery_prefix: "ENERGY2MQTT_HOMEASSISTANT_DISCOVERY_PREFIX",
};

/** config.yaml's ingress_port. */
const INGRESS_PORT = 8099;

class StartError extends Error {}

function say(message) {
  process.stderr.write(`energy2mqtt add-on: ${message}\n`);
}

function readOptions() {
  try {
    return JSON.parse(readFileSync(OPTIONS_FILE, "utf8"));
  } catch (error) {
    throw new StartError(`cannot read the add-on options at ${OPTIONS_FILE}: ${error.message}`);
  }
}

/** GET from the Supervisor API; the `data` of its `{result: "ok", data}` envelope. */
async function supervisor(path) {
  const token = env.SUPERVISOR_TOKEN;
  if (!token) throw new StartError(`SUPERVISOR_TOKEN is not set, so ${path} cannot be asked`);
  let response;
  try {
    response = await fetch(`${SUPERVISOR}${path}`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new StartError(`the Supervisor did not answer ${path}: ${error.message}`);
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok || body.result !== "ok" || typeof body.data !== "object" || body.data === null) {
    throw new StartError(`the Supervisor refused ${path} (HTTP ${response.status}: ${body.message ?? "no message"})`);
  }
  return body.data;
}

/** The broker Home Assistant's MQTT service offers (normally the Mosquitto broker add-on). */
async function supervisorBroker() {
  let mqtt;
  try {
    mqtt = await supervisor("/services/mqtt");
  } catch (error) {
    throw new StartError(
      `no MQTT broker: ${error.message}. Install and start the Mosquitto broker add-on, or set mqtt_url (and mqtt_username, mqtt_password) in this add-on's options.`,
    );
  }
  if (!mqtt.host || !mqtt.port) throw new StartError("the Supervisor's MQTT service has no host or port");
  const scheme = mqtt.ssl ? "mqtts" : "mqtt";
  return {
    url: `${scheme}://${mqtt.host}:${mqtt.port}`,
    username: mqtt.username ?? "",
    password: mqtt.password ?? "",
    from: mqtt.addon ?? "the Supervisor",
  };
}

async function timezone() {
  try {
    const info = await supervisor("/info");
    return typeof info.timezone === "string" && info.timezone ? info.timezone : undefined;
  } catch (error) {
    say(`keeping the container's time zone: ${error.message}`);
    return undefined;
  }
}

/** The command line, environment and folder to exec the daemon with. */
async function plan() {
  const options = readOptions();
  const childEnv = { ...env };
  // The daemon needs none of these.
  for (const name of ["SUPERVISOR_TOKEN", "ENERGY2MQTT_ADDON_OPTIONS", "ENERGY2MQTT_ADDON_CONFIG_DIR"])
    delete childEnv[name];
  for (const [option, name] of Object.entries(OPTION_ENV)) {
    const value = options[option];
    if (value === undefined || value === null || value === "") continue;
    childEnv[name] = String(value);
  }
  if (options.rules_file && !isAbsolute(options.rules_file))
    childEnv.ENERGY2MQTT_RULES = join(CONFIG_DIR, options.rules_file);

  if (options.mqtt_url) {
    say(`MQTT broker from the options: ${redact(options.mqtt_url)}`);
  } else {
    const broker = await supervisorBroker();
    childEnv.ENERGY2MQTT_MQTT_URL = broker.url;
    if (broker.username) childEnv.ENERGY2MQTT_MQTT_USERNAME = broker.username;
    else delete childEnv.ENERGY2MQTT_MQTT_USERNAME;
    if (broker.password) childEnv.ENERGY2MQTT_MQTT_PASSWORD = broker.password;
    else delete childEnv.ENERGY2MQTT_MQTT_PASSWORD;
    say(`MQTT broker from ${broker.from}: ${broker.url}`);
  }

  // The page is the add-on's ingress panel: on every interface of the container, at the
  // ingress_port of config.yaml, answering only the Supervisor's proxy.
  childEnv.ENERGY2MQTT_WEB_HOST = "0.0.0.0";
  childEnv.ENERGY2MQTT_WEB_PORT = String(INGRESS_PORT);
  childEnv.ENERGY2MQTT_WEB_INGRESS = "true";

  const tz = await timezone();
  if (tz) childEnv.TZ = tz;

  const config = join(CONFIG_DIR, "configuration.yaml");
  const args = ["run"];
  if (existsSync(config)) {
    args.push("-c", config);
    say(`configuration: ${config} (the add-on options override it)`);
  } else {
    // The store must live in the add-on's config folder, which Home Assistant backs up.
    childEnv.ENERGY2MQTT_STORE_PATH ??= join(CONFIG_DIR, "energy2mqtt.db");
    say(`no ${config}: running on the add-on options`);
  }
  return { command: BIN, args, env: childEnv, cwd: CONFIG_DIR };
}

function redact(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Replaces this process with the daemon (Node 22.15+), else runs it as a child and passes signals on. */
function exec({ command, args, env: childEnv, cwd }) {
  process.chdir(cwd);
  if (typeof process.execve === "function") process.execve(command, [command, ...args], childEnv);
  const child = spawn(command, args, { env: childEnv, stdio: "inherit" });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("error", (error) => {
    say(`cannot start ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

async function main() {
  try {
    exec(await plan());
  } catch (error) {
    if (!(error instanceof StartError)) throw error;
    say(error.message);
    process.exit(1);
  }
}

await main();
