import { AuthenticationError, CloudError, ForbiddenError, refusalText } from "../cloud/index.js";
import { type Config, ConfigError, loadConfig } from "../config/index.js";
import { createLogger } from "../log/log.js";
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
import { rememberTokenWorked, tokenWorkedBefore } from "../sources/cloud/index.js";
import { discoverInventory, type Inventory } from "../sources/index.js";
import { checkLocal } from "./check-local.js";
import { probeScopes, type ScopeReport, UNCHECKED_SCOPES } from "./check-scopes.js";
import { cloudClient, configFile } from "./shared.js";

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

async function checkCloud(
  config: Config,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
  summary: string[],
): Promise<{ code: number; inventory?: Inventory }> {
  const { url, token } = config.cloud;
  if (!url && config.source === "local") {
    out.write(
      "cloud: none configured; `energy2mqtt run` reads the dongles under local:, and changes the inverters' settings and presets over them (not a passive one's)\n",
    );
    return { code: 0 };
  }
  if (!url && config.source === "auto") {
    err.write(
      "cloud: none configured, but source: auto reads each device's dongle with the cloud as fallback: set cloud.url and cloud.token, or source: local for the LAN alone\n",
    );
    return { code: 2 };
  }
  if (!url) {
    out.write(
      `cloud: none configured; \`energy2mqtt run\` will use the built-in simulator (demo house). Set cloud.url and cloud.token for your own account.${token ? " (cloud.token is set but is unused without cloud.url.)" : ""}\n`,
    );
    return { code: 0 };
  }
  if (!token) {
    err.write(
      "cloud.url is set but cloud.token is not: create an API token in the portal and set cloud.token (or ENERGY2MQTT_CLOUD_TOKEN)\n",
    );
    return { code: 2 };
  }
  const client = cloudClient(config, url, token);
  let inventory: Inventory;
  try {
    // What a listing the token may not read costs is in the summary; no log lines in between.
    inventory = await discoverInventory(client, { logger: createLogger("silent") });
  } catch (error) {
    if (!(error instanceof CloudError)) throw error;
    err.write(`cloud: ${redactUrl(url)}: ${error.message}\n`);
    if (error instanceof AuthenticationError || error instanceof ForbiddenError) {
      const likelier = tokenWorkedBefore(config.store.path, token) ? "subscription" : "token";
      err.write(`cloud: ${refusalText(error.status ?? 401, likelier)}\n`);
      if (config.source !== "cloud" && config.local.length > 0)
        err.write(
          "cloud: `energy2mqtt run` carries on over the LAN with the dongles under local: (reported below) until the cloud takes the token\n",
        );
    }
    if (error instanceof ForbiddenError) {
      summary.push(
        "  missing: api:account:read: energy2mqtt cannot start without reading the account",
        "  not ready: make a token with the scopes the README lists",
      );
      return { code: 1 };
    }
    return { code: error instanceof AuthenticationError ? 2 : 1 };
  }
  out.write(`cloud: ${redactUrl(url)}: the token is accepted\n${describeInventory(inventory)}`);
  try {
    rememberTokenWorked(config.store.path, token);
  } catch {
    // Only a later refusal's likelier cause depends on it.
  }
  const scopes = await probeScopes(client, inventory);
  summary.push(...describeScopes(scopes));
  return { code: scopes.missing.some((probe) => probe.needed) ? 1 : 0, inventory };
}

/** The summary's lines: what works, what is missing and what that costs, what could not be checked. */
function describeScopes(report: ScopeReport): string[] {
  const lines = [`  works: the account, ${report.works.map((probe) => probe.gives).join(", ")}`];
  for (const probe of report.missing)
    lines.push(`  missing: ${probe.scope}${probe.needed ? " (needed)" : ""}: ${probe.cost}`);
  for (const { probe, message } of report.failed)
    lines.push(`  unknown: ${probe.scope}: the cloud failed while checking it (${message})`);
  if (report.notApplicable.length > 0)
    lines.push(
      `  not tried (nothing to read them on, or they need a missing scope too): ${report.notApplicable.map((p) => p.scope).join(", ")}`,
    );
  lines.push("  not checked (only a change could test them; without one, the change fails with a 403 naming it):");
  for (const unchecked of UNCHECKED_SCOPES) lines.push(`    ${unchecked.scope}: without it ${unchecked.cost}`);
  const needed = report.missing.filter((probe) => probe.needed);
  lines.push(
    needed.length > 0
      ? `  not ready: the token lacks ${needed.map((p) => p.scope).join(", ")}, which energy2mqtt needs; make a token with the scopes the README lists`
      : report.missing.length > 0
        ? "  ready, with less: energy2mqtt runs with this token and leaves out what is missing above"
        : "  ready: the token has every scope a read can check",
  );
  return lines;
}

function describeInventory(inventory: Inventory): string {
  const { account } = inventory;
  const lines = [`account: ${account.name} (id ${account.id}, time zone ${inventory.timezone})`];
  const section = (title: string, items: readonly string[]) => {
    lines.push(`${title} (${items.length})${items.length === 0 ? ": none" : ":"}`);
    for (const item of items) lines.push(`  ${item}`);
  };
  section(
    "inverters",
    inventory.inverters.map((inverter) => {
      const control = inverter.emsSerial
        ? `controlled through EMS ${inverter.emsSerial}`
        : inverter.controllable
          ? `controllable: ${inverter.settings.length} settings, ${inverter.presets.length} presets`
          : "not remotely controllable";
      return `${inverter.serial}  ${inverter.model}  ${inverter.batteries.length} battery module(s), ${inverter.meters.length} meter(s); ${control}`;
    }),
  );
  section(
    "EMS",
    inventory.ems.map((ems) => `${ems.serial}  ${ems.model}  inverters ${ems.inverterSerials.join(", ") || "none"}`),
  );
  section(
    "EV chargers",
    inventory.evChargers.map(
      (charger) =>
        `${charger.alias}  ${charger.serial}  uuid ${charger.uuid}  ${charger.commands.length} command(s) supported`,
    ),
  );
  section(
    "smart devices",
    inventory.smartDevices.map((device) => `${device.alias}  uuid ${device.uuid}`),
  );
  lines.push(`sites: ${inventory.sites.length}`);
  return `${lines.join("\n")}\n`;
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
