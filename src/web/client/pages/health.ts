import type { LiveSnapshot, SettingsBackupsView, WebHealth } from "../../api-types.js";
import { getJson } from "../api.js";
import { ago, h } from "../dom.js";
import { zonedTime } from "../local-time.js";
import type { Page } from "../page.js";
import { plural } from "../plural.js";
import { settingsBackupsList } from "./settings-backups.js";

/** "229 of 300 requests used this minute (71 left)". */
export function budgetWords(budget: WebHealth["budget"]): string {
  if (!budget) return "no rate budget known yet";
  const left = Math.max(0, budget.limit - budget.used);
  return `${budget.used} of ${budget.limit} requests used this minute (${left} left)`;
}

/** Active, refused, or not known yet, in words. */
export function subscriptionWords(health: WebHealth): string {
  if (health.refused)
    return `refused (HTTP ${health.refused.status}, ${health.refused.likelier === "subscription" ? "the subscription is likelier" : "the token is likelier"}): ${health.refused.message}`;
  if (health.cloud.simulated) return "active (the simulator's demo house, no real account)";
  if (health.cloud.lastSuccess !== null) return "active: the cloud answers";
  if (health.source === "local") return "not used (source: local)";
  return "not confirmed yet: no answer from the cloud so far";
}

export const renderHealth: Page = (main, stream) => {
  const body = h("dl", { class: "health" });
  main.append(h("h2", {}, "Health"), body);
  const draw = (health: WebHealth, backups: SettingsBackupsView | undefined) => {
    const live: LiveSnapshot | undefined = stream.last();
    const timeZone = live?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    // The daemon's clock: a demo runs its own.
    const now = live?.now ?? Date.now();
    const time = (ms: number | null) => (ms === null ? "never" : zonedTime(ms, timeZone, now));
    const row = (term: string, value: string | Node, key?: string) => [
      h("dt", {}, term),
      h("dd", key ? { "data-health": key } : {}, value),
    ];
    const mb = health.store.bytes === null ? "unknown" : `${(health.store.bytes / 1_048_576).toFixed(1)} MB`;
    const details = new Map(health.paths.map((one) => [one.device, one]));
    const devices = live?.devices ?? [];
    const pathItems = devices.map((device) => {
      const detail = details.get(device.id);
      const where = device.path === "local" ? "its dongle on the LAN" : "the cloud";
      const more = detail
        ? ` since ${time(Date.parse(detail.since))}: ${detail.why}${detail.setting === "auto" ? "" : ` (set to ${detail.setting})`}; ${plural(detail.switches, "switch", "switches")}`
        : "";
      return h("li", { "data-device": device.id, "data-path": device.path }, `${device.name}: ${where}${more}`);
    });
    const writes = health.writes;
    const writeItems = writes
      ? Object.entries(writes.devices).map(([device, count]) =>
          h("li", { "data-device": device }, `${device}: ${count} of ${writes.budget} changes sent today`),
        )
      : [];
    body.replaceChildren(
      ...row("Cloud subscription", subscriptionWords(health), "subscription"),
      ...(health.refused?.carrying_on ? row("Without the cloud", health.refused.carrying_on) : []),
      ...row("Rate budget", budgetWords(health.budget), "budget"),
      ...row(
        "Device paths",
        pathItems.length
          ? h("ul", {}, ...pathItems)
          : `every device over ${health.source === "local" ? "its dongle on the LAN" : "the cloud"} (source: ${health.source})`,
        "paths",
      ),
      ...row(
        "Changes today",
        !writes
          ? "no daily write budget is set"
          : writeItems.length
            ? h("ul", {}, ...writeItems)
            : `none sent yet; each device may take ${writes.budget} a day`,
        "writes",
      ),
      ...row(
        "Cloud",
        `${health.cloud.simulated ? "simulator (demo house)" : "GivEnergy cloud"}; last answer ${health.cloud.lastStatus === null ? "none yet" : `HTTP ${health.cloud.lastStatus}`}`,
      ),
      ...row("Last success", `${time(health.cloud.lastSuccess)} (${ago(health.cloud.lastSuccess, now)})`),
      ...row(
        "Requests",
        `${plural(health.cloud.requests, "request")} since start, ${health.cloud.failures} of them failed`,
      ),
      ...row("Store", `${health.store.status}, ${mb} (${health.store.path})`),
      ...row(
        "Settings backups",
        backups ? settingsBackupsList(backups, (ms) => time(ms)) : "not kept (the store is not open)",
        "settings-backups",
      ),
      ...row("Rules", health.rules ? "running" : "not running"),
      ...row("Versions", `energy2mqtt ${health.version}, Node ${health.node}`),
      ...row("Started", time(health.startedAt)),
      ...row("Time zone", timeZone),
    );
  };
  const refresh = () =>
    Promise.all([getJson<WebHealth>("health"), getJson<SettingsBackupsView>("settings-backups").catch(() => undefined)])
      .then(([health, backups]) => draw(health, backups))
      .catch((error: Error) => body.replaceChildren(h("p", {}, error.message)));
  void refresh();
  const timer = setInterval(refresh, 10_000);
  return () => clearInterval(timer);
};
