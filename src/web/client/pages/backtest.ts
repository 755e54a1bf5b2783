import { BACKTEST_POLICY_HEADS } from "../../../backtest/table-cells.js";
import type { BacktestJobView } from "../../backtest-view.js";
import { getJson, postJson } from "../api.js";
import { h } from "../dom.js";
import type { Page } from "../page.js";
import { backtestResultView } from "./backtest-result.js";

const POLL_MS = 500;
/**
 * Checked at first: all but the exact optimum, which needs a solver installed and, where many
 * schedules cost the same (the demo house's fixed export price), takes longest by far.
 */
const FIRST_POLICIES = new Set(["actual", "no-battery", "eco-only", "rules", "optimiser"]);

/** The Backtest page: the form of `energy2mqtt backtest`, its progress, then its table and chart. */
export const renderBacktest: Page = (main) => {
  let alive = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const field = (label: string, input: HTMLElement, hint?: string) =>
    h("label", { class: "field" }, h("span", {}, label), input, hint ? h("small", { class: "hint" }, hint) : null);
  const from = h("input", { type: "date", name: "from" });
  const to = h("input", { type: "date", name: "to" });
  const battery = h("input", { type: "text", inputmode: "decimal", name: "batteryKwh", size: 6 });
  const by = h(
    "select",
    { name: "by" },
    h("option", { value: "day" }, "day"),
    h("option", { value: "month", selected: true }, "month"),
    h("option", { value: "range" }, "the whole range"),
  );
  const tariffs = h("input", { type: "text", name: "tariffs", size: 40 });
  const region = h("input", { type: "text", name: "region", size: 2, maxlength: 1 });
  const policies = Object.entries(BACKTEST_POLICY_HEADS).map(([policy, head]) => {
    const box = h("input", { type: "checkbox", name: "policy", value: policy, checked: FIRST_POLICIES.has(policy) });
    return { policy, box, label: h("label", { class: "check" }, box, ` ${head}`) };
  });
  const run = h("button", { type: "submit", class: "primary" }, "Run");
  const progress = h("progress", {
    class: "backtest-progress",
    max: 1,
    value: 0,
    "aria-label": "Backtest progress",
    hidden: true,
  });
  const status = h("p", { class: "backtest-status", role: "status", "aria-live": "polite" });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const out = h("div", { class: "backtest-out" });
  const form = h(
    "form",
    { class: "backtest-form", "aria-label": "Backtest options" },
    field("From", from, "blank: a year before To"),
    field("To", to, "blank: yesterday"),
    field("Battery kWh", battery, "blank: the rules file's"),
    field("Rows per", by),
    field("Octopus tariffs", tariffs, "NAME:PRODUCT, comma-separated, e.g. agile:AGILE-24-10-01"),
    field("Region", region, "your tariff code's last letter"),
    h("fieldset", { class: "policies" }, h("legend", {}, "Policies"), ...policies.map((one) => one.label)),
    run,
  );

  const showError = (message: string) => {
    error.textContent = message;
    error.hidden = false;
  };
  const follow = (id: string) => {
    getJson<BacktestJobView>(`backtest/${id}`)
      .then((job) => {
        if (!alive) return;
        progress.value = job.fraction;
        status.textContent = `${job.state === "running" ? "Running" : "Finished"}: ${job.phase}, ${Math.round(job.fraction * 100)}% (${job.seconds.toFixed(0)} s)`;
        if (job.state === "running") {
          timer = setTimeout(() => follow(id), POLL_MS);
          return;
        }
        run.disabled = false;
        progress.hidden = true;
        if (job.error !== null) {
          status.textContent = `Failed after ${job.seconds.toFixed(1)} s.`;
          showError(job.error);
        }
        if (job.result) {
          status.textContent = `Done in ${job.seconds.toFixed(1)} s.`;
          out.replaceChildren(backtestResultView(job.result, Math.max(280, out.clientWidth)));
        }
      })
      .catch((failure: Error) => {
        run.disabled = false;
        showError(failure.message);
      });
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    error.hidden = true;
    out.replaceChildren();
    const specs = tariffs.value
      .split(",")
      .map((one) => one.trim())
      .filter((one) => one !== "");
    const body = {
      ...(from.value ? { from: from.value } : {}),
      ...(to.value ? { to: to.value } : {}),
      ...(battery.value.trim() ? { batteryKwh: battery.value.trim() } : {}),
      by: by.value,
      tariffs: specs,
      ...(region.value.trim() ? { region: region.value.trim().toUpperCase() } : {}),
      policies: policies.filter((one) => one.box.checked).map((one) => one.policy),
    };
    run.disabled = true;
    status.textContent = "Starting…";
    postJson<{ id: string }>("backtest", body)
      .then(({ id }) => {
        progress.hidden = false;
        progress.value = 0;
        follow(id);
      })
      .catch((failure: Error) => {
        run.disabled = false;
        status.textContent = "";
        showError(failure.message);
      });
  });

  // A run going on (or the last one) is shown again when the page is opened again.
  getJson<{ job: BacktestJobView | null }>("backtest")
    .then(({ job }) => {
      if (!alive || !job || run.disabled) return;
      // The form says what the table shows.
      if (job.result) {
        from.value = job.result.from;
        to.value = job.result.to;
        by.value = job.result.by;
      }
      if (job.state === "running") {
        run.disabled = true;
        progress.hidden = false;
      }
      follow(job.id);
    })
    .catch((failure: Error) => showError(failure.message));
  main.append(
    h("h2", {}, "Backtest"),
    h(
      "p",
      { class: "hint" },
      "What the house's own metered half-hours (every inverter together) would have cost under each policy and tariff: the same run as ",
      h("code", {}, "energy2mqtt backtest"),
      ". A year takes minutes; the daemon keeps running meanwhile.",
    ),
    form,
    progress,
    status,
    error,
    out,
  );
  return () => {
    alive = false;
    if (timer !== undefined) clearTimeout(timer);
  };
};
