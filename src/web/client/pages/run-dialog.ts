import type { RuleRunResult, RunPreview } from "../../../rules-runtime/index.js";
import { postJson } from "../api.js";
import { h } from "../dom.js";
import type { LocalTime } from "../local-time.js";

const HALF_HOUR = 30 * 60_000;

/** The optimiser's actions as the Plan page's table names them. */
const PLAN_ACTION: Readonly<Record<string, string>> = {
  charge: "charge from the grid",
  export: "export",
  hold: "hold the battery",
  "self-use": "self-use (eco)",
};

function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ""}` : `${minutes} min`;
}

/**
 * "Run now", asked first: the preview of what it will send, for how long and to which device, the
 * rule's conditions checked now, and an explicit override when one does not hold. Nothing is sent
 * until the user confirms (the server wants that confirmation too).
 */
export async function confirmRun(rule: string, time: LocalTime, say: (text: string) => void): Promise<void> {
  const path = `rules/${encodeURIComponent(rule)}`;
  const preview = await postJson<RunPreview>(`${path}/preview`, {});
  const titleId = "run-title";
  const failing = preview.conditions.filter((check) => check.holds !== true);
  const override = h("input", { type: "checkbox", id: "run-override" });
  const confirm = h("button", { type: "button", class: "primary", "data-confirm": "run" }, "Run now");
  const cancel = h("button", { type: "button", "data-confirm": "cancel" }, "Cancel");
  const when = preview.window
    ? `From ${time.dateTime(preview.window.start)} to ${time.time(preview.window.end)} (${duration(preview.window.end - preview.window.start)}, ${time.zoneName()}); what it changes is put back at the end.`
    : "Once, now.";
  const dialog = h(
    "dialog",
    { class: "run-preview", "aria-labelledby": titleId, "data-rule": rule },
    h("h3", { id: titleId }, `Run ${rule} now?`),
    preview.planNow
      ? h(
          "p",
          {
            class: "run-plan-now",
            "data-plan-action": preview.planNow.action,
            "data-plan-start": preview.planNow.start,
          },
          `The plan for now, ${time.time(preview.planNow.start)}–${time.time(preview.planNow.start + HALF_HOUR)}: `,
          h("strong", {}, PLAN_ACTION[preview.planNow.action] ?? preview.planNow.action),
          ` (${preview.planNow.reason}). Run now applies this half-hour's plan.`,
        )
      : null,
    // With nothing to send for the plan's half-hour there is no span to speak of.
    preview.planNow && !preview.ok ? null : h("p", { class: "run-when" }, when),
    preview.dryRun ? h("p", { class: "hint" }, "This rule is in dry run: its actions are logged, not sent.") : null,
    preview.ok ? null : h("p", { class: preview.planNow ? "hint run-nothing" : "error" }, preview.message),
    preview.actions.length > 0 ? h("h4", {}, "It will send") : null,
    preview.actions.length > 0
      ? h(
          "ul",
          { class: "run-actions" },
          ...preview.actions.map((action) =>
            h(
              "li",
              { "data-action": action.action, "data-device": action.device ?? "" },
              action.words,
              action.conflict ? h("span", { class: "conflict-note" }, ` — ${action.conflict}`) : null,
            ),
          ),
        )
      : null,
    preview.conditions.length > 0 ? h("h4", {}, "Its conditions now") : null,
    preview.conditions.length > 0
      ? h(
          "ul",
          { class: "run-conditions" },
          ...preview.conditions.map((check) =>
            h(
              "li",
              { class: check.holds === true ? "holds" : "fails" },
              check.holds === true ? "✓ " : "✗ ",
              `${check.text}: ${check.now}`,
            ),
          ),
        )
      : null,
    failing.length > 0
      ? h(
          "p",
          { class: "warning", role: "alert" },
          `Its condition does not hold now (${failing.map((check) => `${check.text}: ${check.now}`).join("; ")}). Nothing will be sent unless you override it.`,
        )
      : null,
    failing.length > 0
      ? h("p", {}, h("label", { for: "run-override" }, override, " Run anyway, ignoring its condition"))
      : null,
    h("div", { class: "dialog-buttons" }, confirm, cancel),
  );
  const update = () => {
    confirm.disabled = !preview.ok || (!preview.conditionsHold && !override.checked);
  };
  override.addEventListener("change", update);
  update();
  document.body.append(dialog);
  // Focus goes back where it was (the rule's button) when the dialog goes.
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const close = () => {
    dialog.close();
    dialog.remove();
    opener?.focus();
  };
  cancel.addEventListener("click", () => {
    close();
    say(`${rule}: not run, nothing was sent`);
  });
  dialog.addEventListener("cancel", () => {
    dialog.remove();
    opener?.focus();
    say(`${rule}: not run, nothing was sent`);
  });
  confirm.addEventListener("click", () => {
    confirm.disabled = true;
    postJson<RuleRunResult>(`${path}/run`, { confirm: true, override: override.checked })
      .then((result) => say(`${rule}: ${result.message}`))
      .catch((error: Error) => say(`${rule}: ${error.message}`))
      .finally(close);
  });
  dialog.showModal();
  cancel.focus();
}
