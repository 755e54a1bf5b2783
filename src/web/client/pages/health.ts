import type { WebHealth } from "../../api-types.js";
import { getJson } from "../api.js";
import { ago, clock, h } from "../dom.js";
import type { Page } from "../page.js";

export const renderHealth: Page = (main) => {
  const body = h("dl", { class: "health" });
  main.append(h("h2", {}, "Health"), body);
  const draw = (health: WebHealth) => {
    const row = (term: string, value: string) => [h("dt", {}, term), h("dd", {}, value)];
    const mb = health.store.bytes === null ? "unknown" : `${(health.store.bytes / 1_048_576).toFixed(1)} MB`;
    const paths = health.paths.map((one) =>
      row(
        `Path of ${one.device}`,
        `${one.path === "local" ? "its dongle on the LAN" : "the cloud"} since ${clock(Date.parse(one.since))}: ${one.why}` +
          `${one.setting === "auto" ? "" : ` (set to ${one.setting})`}; ${one.switches} switch${one.switches === 1 ? "" : "es"}`,
      ),
    );
    const refused = health.refused
      ? [
          ...row("Cloud refused", health.refused.message),
          ...(health.refused.carrying_on ? row("Without the cloud", health.refused.carrying_on) : []),
        ]
      : [];
    body.replaceChildren(
      ...refused,
      ...paths.flat(),
      ...row(
        "Cloud",
        `${health.cloud.simulated ? "simulator (demo house)" : "GivEnergy cloud"}; last answer ${health.cloud.lastStatus ?? "none yet"}`,
      ),
      ...row("Last success", `${clock(health.cloud.lastSuccess)} (${ago(health.cloud.lastSuccess)})`),
      ...row("Requests", `${health.cloud.requests} since start, ${health.cloud.failures} failed`),
      ...row("Rate budget", health.budget ? `${health.budget.used} of ${health.budget.limit} this minute` : "unknown"),
      ...row("Store", `${health.store.status}, ${mb} (${health.store.path})`),
      ...row("Rules", health.rules ? "running" : "not running"),
      ...row("Versions", `energy2mqtt ${health.version}, Node ${health.node}`),
      ...row("Started", clock(health.startedAt)),
    );
  };
  const refresh = () =>
    getJson<WebHealth>("health")
      .then(draw)
      .catch((error: Error) => body.replaceChildren(h("p", {}, error.message)));
  void refresh();
  const timer = setInterval(refresh, 10_000);
  return () => clearInterval(timer);
};
