import type { RuleEvent, RuleStatus, RunPreview } from "../../../rules-runtime/index.js";
import type { AuditEntry } from "../../../store/index.js";
import { getJson, postJson } from "../api.js";
import { h } from "../dom.js";
import { type LocalTime, localTime } from "../local-time.js";
import type { Page } from "../page.js";
import { scrollRegion } from "../scroll-region.js";
import { confirmRun } from "./run-dialog.js";

export const renderChanges: Page = (main, stream) => {
  const rules = h("div", { class: "rules" }, h("p", {}, "Loading the rules…"));
  const result = h("p", { class: "result", role: "status", "aria-live": "polite" });
  const events = h("ol", { class: "events", reversed: true, hidden: true });
  const noEvents = h("p", { class: "hint" }, "No rule events since the daemon started.");
  const audit = h("tbody");
  main.append(
    h("h2", {}, "Changes"),
    h("h3", {}, "Rules"),
    rules,
    result,
    h("h3", {}, "Rule events"),
    noEvents,
    events,
    h("h3", {}, "Audit log"),
    scrollRegion(
      "Audit log",
      h(
        "table",
        { class: "audit" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ...["When", "Who asked", "Device", "What", "Answer", "Verified"].map((title) =>
              h("th", { scope: "col" }, title),
            ),
          ),
        ),
        audit,
      ),
    ),
  );
  let time = localTime(undefined);
  const say = (text: string) => {
    result.textContent = text;
  };
  const shown = new Set<string>();
  const showEvent = (event: RuleEvent) => {
    // The stream replays its latest message to a new page; the list may already hold it.
    const key = `${event.at} ${event.rule} ${event.type} ${event.message}`;
    if (shown.has(key)) return;
    shown.add(key);
    events.prepend(
      h(
        "li",
        { "data-type": event.type, ...("status" in event ? { "data-status": event.status } : {}) },
        `${time.dateTime(event.at)} ${event.rule}: ${event.message}`,
      ),
    );
    while (events.children.length > 50) events.lastElementChild?.remove();
    events.hidden = false;
    noEvents.hidden = true;
  };
  const drawRules = (list: RuleStatus[]) => {
    if (list.length === 0) return void rules.replaceChildren(h("p", {}, "No rules are running."));
    rules.replaceChildren(...list.map((rule) => ruleRow(rule, time, say, () => void loadAudit())));
  };
  const loadAudit = () =>
    getJson<{ entries: AuditEntry[] }>("audit", { limit: 100 })
      .then(({ entries }) => audit.replaceChildren(...entries.map((entry) => auditRow(entry, time))))
      .catch((error: Error) => say(error.message));
  getJson<{ rules: RuleStatus[]; timeZone: string | null }>("rules")
    .then(({ rules: list, timeZone }) => {
      time = localTime(timeZone);
      drawRules(list);
      void loadAudit();
    })
    .catch((error: Error) => say(error.message));
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

function ruleRow(rule: RuleStatus, time: LocalTime, say: (text: string) => void, reload: () => void): HTMLElement {
  const id = `rule-${rule.name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  const toggle = h("input", {
    type: "checkbox",
    role: "switch",
    id,
    checked: rule.enabled,
    "data-rule": rule.name,
    "aria-describedby": `${id}-hint`,
  });
  toggle.addEventListener("change", () => {
    postJson(`rules/${encodeURIComponent(rule.name)}/enable`, { enabled: toggle.checked })
      .then(() => {
        say(`${rule.name} switched ${toggle.checked ? "on" : "off"}`);
        reload();
      })
      .catch((error: Error) => {
        toggle.checked = !toggle.checked;
        say(error.message);
      });
  });
  const run = h(
    "button",
    { type: "button", "data-action": "run", "aria-label": `Run now… (${rule.name})` },
    "Run now…",
  );
  run.addEventListener("click", () => {
    confirmRun(rule.name, time, (text) => {
      say(text);
      reload();
    }).catch((error: Error) => say(`${rule.name}: ${error.message}`));
  });
  const dry = h(
    "button",
    { type: "button", "data-action": "dry-run", "aria-label": `Dry run (${rule.name})` },
    "Dry run",
  );
  dry.addEventListener("click", () => {
    dry.disabled = true;
    postJson<{ message: string; preview: RunPreview }>(`rules/${encodeURIComponent(rule.name)}/dry-run`, {})
      .then((answer) => {
        const words = answer.preview.actions.map((action) => action.words).join("; ");
        say(`${rule.name}: ${answer.message}${words ? ` — would ${words}` : ""}`);
        reload();
      })
      .catch((error: Error) => say(error.message))
      .finally(() => {
        dry.disabled = false;
      });
  });
  const next = rule.nextWindow
    ? `next ${time.dateTime(rule.nextWindow.start)} – ${time.time(rule.nextWindow.end)}`
    : "no window planned";
  return h(
    "div",
    { class: "rule" },
    h("label", { for: id, class: "switch" }, toggle, h("span", {}, rule.name)),
    h(
      "span",
      { class: "hint", id: `${id}-hint` },
      `${rule.dryRun ? "dry run · " : ""}priority ${rule.priority} · ${next}`,
    ),
    rule.lastRun
      ? h("span", { class: "hint" }, `last run ${time.dateTime(rule.lastRun.at)}: ${rule.lastRun.message}`)
      : null,
    h("span", { class: "actions" }, run, dry),
  );
}

function auditRow(entry: AuditEntry, time: LocalTime): HTMLTableRowElement {
  const answer = entry.skipped ? "skipped" : entry.ok ? "ok" : `refused${entry.code ? ` (${entry.code})` : ""}`;
  return h(
    "tr",
    { class: entry.ok ? "" : "failed" },
    h("td", {}, time.dateTime(entry.at)),
    h("td", {}, entry.source, entry.requesterName ? ` · ${entry.requesterName}` : ""),
    h("td", {}, entry.target),
    h("td", {}, h("code", {}, entry.action)),
    h("td", { title: entry.message }, answer, entry.message ? `: ${entry.message}` : ""),
    h("td", {}, entry.verified ? "yes" : "no"),
  );
}
