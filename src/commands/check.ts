import { type Config, ConfigError, loadConfig } from "../config/index.js";
import { type MqttTls, MqttTlsFileError, probeMqtt, readMqttTls, redactUrl } from "../mqtt/index.js";
import {
  type DeviceCheck,
  type LoadedRules,
  loadRules,
  RulesError,
  refuseRulesNotFitting,
  rulesPath,
  sharedControlText,
} from "../rules/index.js";
import { checkCloud } from "../sources/cloud/index.js";
import type { Inventory } from "../sources/index.js";
import { checkLocal } from "./check-local.js";
import { configFile } from "./shared.js";

export interface CheckOptions {
  readonly config?: string;
}

const MQTT_PROBE_TIMEOUT_MS = 3000;

/**
 * `energy2mqtt check`: validates the configuration, checks the token and lists what the account
 * has, reports each dongle on the LAN (reachable, model, serial, round trip), connects to the MQTT broker as `run` would, and ends with a plain summary of what works
 * and what the token lacks. 0 ok, 1 a scope energy2mqtt needs is missing or a runtime failure
 * (402, cloud down), 2 bad configuration, a refused token, broker credentials or certificate.
 */
export async function runCheckCommand(
  options: CheckOptions,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  let config: Config;
  let rules: LoadedRules | undefined;
  let file: string | undefined;
  try {
    const loaded = loadConfig(configFile(options.config));
    config = loaded.config;
    file = loaded.file;
    out.write(
      loaded.file ? `configuration: ${loaded.file} is valid\n` : "configuration: none found, the embedded defaults\n",
    );
    if (config.rules) {
      rules = loadRules(rulesPath(config.rules, loaded.file));
      // "Valid" only once its values are checked against the devices (below, when the cloud answers).
      out.write(`rules: ${rules.file} reads as ${rules.rules.rules.length} rule(s)\n`);
      out.write(sharedControlText(rules.rules.rules));
    }
  } catch (error) {
    if (!(error instanceof ConfigError) && !(error instanceof RulesError)) throw error;
    err.write(`${error.message}\n`);
    return 2;
  }
  const summary: string[] = [];
  const cloud = await checkCloud(config, out, err, summary);
  const rulesCode = rules && cloud.inventory ? checkRulesAgainst(rules, cloud.inventory, out, err) : 0;
  const localCode = await checkLocal(config, out, err);
  const mqttCode = await checkMqtt(config, file, out, err);
  out.write(`store: ${config.store.path}\n`);
  if (summary.length > 0) out.write(`\nsummary:\n${summary.join("\n")}\n`);
  return Math.max(cloud.code, rulesCode, localCode, mqttCode);
}

/**
 * The rules' literal values against the devices' own rules: a value out of range fails now, not
 * at 01:00. The same check as `run` makes at start, with the same message.
 */
function checkRulesAgainst(
  rules: LoadedRules,
  inventory: Inventory,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): number {
  let result: DeviceCheck;
  try {
    result = refuseRulesNotFitting(rules, inventory);
  } catch (error) {
    if (!(error instanceof RulesError)) throw error;
    err.write(`${error.message}\n`);
    return 2;
  }
  const templated =
    result.templated > 0 ? `; ${result.templated} templated value(s) can only be checked when the rule runs` : "";
  out.write(`rules: ${result.checked} literal value(s) fit the devices' own rules${templated}\n`);
  return 0;
}

/**
 * One MQTT CONNECT with the configured credentials and TLS, as `run` makes it: the broker's
 * answer, not merely an open port. Refused credentials and an untrusted certificate exit 2, since
 * `run` would stop on them too; a broker that cannot be reached is only reported (`run` retries).
 */
async function checkMqtt(
  config: Config,
  configFile: string | undefined,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const { url, username, password } = config.mqtt;
  if (!url) {
    out.write(
      `mqtt: none configured; \`energy2mqtt run\` will start the embedded broker on 127.0.0.1:1883 (or the next free port)${username === undefined ? ", open to anonymous clients (set mqtt.username and mqtt.password to require them)" : `, taking only the user ${username} with mqtt.password`}\n`,
    );
    return 0;
  }
  let tls: MqttTls | undefined;
  try {
    tls = readMqttTls(config.mqtt, configFile);
  } catch (error) {
    if (!(error instanceof MqttTlsFileError)) throw error;
    err.write(`mqtt: ${error.message}\n`);
    return 2;
  }
  const shown = redactUrl(url);
  const probe = await probeMqtt(url, {
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
    ...(tls ? { tls } : {}),
    timeoutMs: MQTT_PROBE_TIMEOUT_MS,
  });
  switch (probe.kind) {
    case "accepted":
      out.write(`mqtt: ${shown}: connected${username === undefined ? "" : ` as ${username}`} (CONNACK 0, accepted)\n`);
      return 0;
    case "refused":
      err.write(
        `mqtt: ${shown}: refused (${probe.code === undefined ? "" : `CONNACK ${probe.code}, `}${probe.reason}): \`energy2mqtt run\` would stop here; check mqtt.username and mqtt.password\n`,
      );
      return 2;
    case "untrusted":
      err.write(`mqtt: ${shown}: ${probe.advice}\n`);
      return 2;
    case "unreachable":
      out.write(
        `mqtt: ${shown}: not reachable (${probe.problem}); \`energy2mqtt run\` keeps retrying, but check the host and port\n`,
      );
      return 0;
    case "no-answer":
      out.write(
        `mqtt: ${shown}: no MQTT answer within ${probe.timeoutMs / 1000} s: check that it is an MQTT broker and that the scheme (mqtt://, mqtts://, ws://, wss://) matches its port\n`,
      );
      return 0;
  }
}
