import type { RuleEvent, RuleStatus } from "../../../ports/index.js";
import type { AuditEntry } from "../../../store/index.js";
import { getJson, postJson } from "../api.js";
import { clock, h } from "../dom.js";
import type { Page } from "../page.js";

export const renderChanges: Page = (main, stream) => {
  const rules = h("div", { class: "rules" }, h("p", {}, "Loading the rules…"));
  const result = h("p", { class: "result", role: "status", "aria-live": "polite" });
  const events = h("ol", { class: "events", reversed: true });
  const audit = h("tbody");
  main.append(
    h("h2", {}, "Changes"),
    h("h3", {}, "Rules"),
    rules,
    result,
    h("h3", {}, "Rule events"),
    events,
    h("h3", {}, "Audit log"),
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "audit" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ...["When", "Who asked", "Device", "What", "Answer", "Verified"].map((title) => h("th", {}, title)),
          ),
        ),
        audit,
      ),
    ),
  );
  const say = (text: string) => {
    result.textContent = text;
  };
  const shown = new Set<string>();
  const showEvent = (event: RuleEvent) => {
    // The stream replays its latest message to a new page; the list may already hold it.
    const key = `${event.at} ${event.rule} ${event.type} ${event.message}`;
    if (shown.has(key)) return;
    shown.add(key);
    events.prepend(h("li", { "data-type": event.type }, `${clock(event.at)} ${event.rule}: ${event.message}`));
    while (events.children.length > 50) events.lastElementChild?.remove();
  };
  const drawRules = (list: RuleStatus[]) => {
    if (list.length === 0) return void rules.replaceChildren(h("p", {}, "No rules are running."));
    rules.replaceChildren(...list.map((rule) => ruleRow(rule, say)));
  };
  const loadAudit = () =>
    getJson<{ entries: AuditEntry[] }>("audit", { limit: 100 })
      .then(({ entries }) => audit.replaceChildren(...entries.map(auditRow)))
      .catch((error: Error) => say(error.message));
  getJson<{ rules: RuleStatus[] }>("rules")
    .then(({ rules: list }) => drawRules(list))
    .catch((error: Error) => say(error.message));
  void loadAudit();
  getJson<{ events: RuleEvent[] }>("rule-events")
    .then(({ events: recent }) => {
      for (const event of recent) showEvent(event);
    })
    .catch((error: Error) => say(error.message));
  const offs = [
    stream.on("rules", (data) => drawRules(data as RuleStatus[])),
    stream.on("change", () => void loadAudit()),
    stream.on("rule", (data) => showEvent(data as RuleEvent)),
  ];
  return () => {
    for (const off of offs) off();
  };
};

function ruleRow(rule: RuleStatus, say: (text: string) => void): HTMLElement {
  const id = `rule-${rule.name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  const toggle = h("input", { type: "checkbox", role: "switch", id, checked: rule.enabled, "data-rule": rule.name });
  toggle.addEventListener("change", () => {
    postJson(`rules/${encodeURIComponent(rule.name)}/enable`, { enabled: toggle.checked })
      .then(() => say(`${rule.name} switched ${toggle.checked ? "on" : "off"}`))
      .catch((error: Error) => {
        toggle.checked = !toggle.checked;
        say(error.message);
      });
  });
  const button = (label: string, path: string) => {
    const element = h("button", { type: "button", "data-action": path }, label);
    element.addEventListener("click", () => {
      element.disabled = true;
      postJson<{ message: string }>(`rules/${encodeURIComponent(rule.name)}/${path}`, {})
        .then((answer) => say(`${rule.name}: ${answer.message}`))
        .catch((error: Error) => say(error.message))
        .finally(() => {
          element.disabled = false;
        });
    });
    return element;
  };
  const next = rule.nextWindow
    ? `next ${clock(rule.nextWindow.start)} – ${clock(rule.nextWindow.end)}`
    : "no window planned";
  return h(
    "div",
    { class: "rule" },
    h("label", { for: id, class: "switch" }, toggle, h("span", {}, rule.name)),
    h("span", { class: "hint" }, `${rule.dryRun ? "dry run · " : ""}priority ${rule.priority} · ${next}`),
    rule.lastRun ? h("span", { class: "hint" }, `last run ${clock(rule.lastRun.at)}: ${rule.lastRun.message}`) : null,
    h("span", { class: "actions" }, button("Run now", "run"), button("Dry run", "dry-run")),
  );
}

function auditRow(entry: AuditEntry): HTMLTableRowElement {
  const answer = entry.skipped ? "skipped" : entry.ok ? "ok" : `refused${entry.code ? ` (${entry.code})` : ""}`;
  return h(
    "tr",
    { class: entry.ok ? "" : "failed" },
    h("td", {}, clock(entry.at)),
    h("td", {}, entry.source, entry.requesterName ? ` · ${entry.requesterName}` : ""),
    h("td", {}, entry.target),
    h("td", {}, h("code", {}, entry.action)),
    h("td", { title: entry.message }, answer, entry.message ? `: ${entry.message}` : ""),
    h("td", {}, entry.verified ? "yes" : "no"),
  );
}
