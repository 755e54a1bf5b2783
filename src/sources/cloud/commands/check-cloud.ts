import { AuthenticationError, CloudError, ForbiddenError, refusalText } from "../../../cloud/index.js";
import type { Config } from "../../../config/index.js";
import { createLogger } from "../../../log/log.js";
import { redactUrl } from "../../../mqtt/index.js";
import type { Inventory } from "../../inventory.js";
import { rememberTokenWorked, tokenWorkedBefore } from "../access.js";
import { discoverInventory } from "../discover.js";
import { probeScopes, type ScopeReport, UNCHECKED_SCOPES } from "./check-scopes.js";
import { cloudClient } from "./client.js";

/**
 * `check`'s part on the cloud: the token, what the account has, and which of the scopes
 * energy2mqtt reads the token lacks (into `summary`). 0 ok, 1 a needed scope missing or a runtime
 * failure, 2 a refused token or a cloud configured without one; the inventory when it answers.
 */
export async function checkCloud(
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
