import type uPlot from "uplot";
import type { DailyEnergy, HistoryColumns, HistoryDevice, HistoryScope, HistoryScopeName } from "../../api-types.js";
import { getJson } from "../api.js";
import { h } from "../dom.js";
import { localTime } from "../local-time.js";
import type { Page } from "../page.js";
import { plural } from "../plural.js";
import { scrollRegion } from "../scroll-region.js";
import { dailyChart } from "./daily-chart.js";
import { dailyCsv } from "./daily-csv.js";
import { type DailyRow, dailyRows, monthsShown } from "./daily-rows.js";
import { powerChart } from "./power-chart.js";

const DAY = 86_400_000;
const RANGES: [string, number][] = [
  ["Day", DAY],
  ["Week", 7 * DAY],
  ["Month", 31 * DAY],
  ["Year", 366 * DAY],
  ["All", 0],
];

export const renderHistory: Page = (main) => {
  const status = h("p", { class: "hint", role: "status", id: "history-status" }, "Loading…");
  const select = h("select", { id: "history-device" });
  const buttons = h("div", { class: "ranges", role: "group", "aria-label": "Range" });
  const zone = h("p", { class: "hint", id: "history-zone" });
  const power = h("div", { class: "chart", id: "power-chart" });
  const energy = h("div", { class: "chart daily-box", id: "energy-chart" });
  const legend = h("ul", { class: "legend", id: "energy-legend" });
  const savings = h("div", { id: "savings" });
  const table = h("div", { id: "energy-table" });
  const energyHeading = h("h3", { id: "energy-heading" }, "Energy per day");
  const download = h("button", { type: "button", id: "energy-csv", disabled: true }, "Download CSV");
  main.append(
    h("h2", {}, "History"),
    h("div", { class: "toolbar" }, h("label", { for: "history-device" }, "Inverter, plant or house"), select, buttons),
    status,
    zone,
    h("h3", {}, "Power and SoC (5-minute points; drag to zoom, double-click to reset)"),
    power,
    energyHeading,
    legend,
    energy,
    h("div", { class: "toolbar" }, download, h("span", { class: "hint" }, "Grid net is export positive, as on MQTT.")),
    savings,
    table,
  );
  const charts: uPlot[] = [];
  let scopes: HistoryScope[] = [];
  let shown: { days: DailyEnergy; rows: DailyRow[] } | undefined;
  const number = new Intl.NumberFormat(navigator.language, { maximumFractionDigits: 2 });

  const drawDaily = (): void => {
    if (!shown) return;
    const { days, rows } = shown;
    const time = localTime(days.timeZone);
    energy.replaceChildren(
      dailyChart(rows, Math.max(280, energy.clientWidth), time, days.currency, number, scopeWords(days.scope)),
    );
  };

  // The last range asked for: an answer to an earlier one that comes later is dropped.
  let asked = 0;
  const load = async (device: HistoryScope, from: number, to: number): Promise<void> => {
    status.textContent = "Loading…";
    // What the status describes is what is shown: nothing, until this range is.
    for (const key of ["device", "from", "to"] as const) delete status.dataset[key];
    const ask = ++asked;
    const [columns, days] = await Promise.all([
      getJson<HistoryColumns>("history", { device: device.id, from, to, width: Math.max(300, power.clientWidth) }),
      getJson<DailyEnergy>("history/days", { device: device.id, from, to }),
    ]);
    if (ask !== asked) return;
    const time = localTime(days.timeZone);
    zone.textContent = `Times in ${time.zoneName()}.`;
    for (const chart of charts.splice(0)) chart.destroy();
    charts.push(powerChart(power, columns, time, (lo, hi) => void load(device, lo, hi)));
    const rows = dailyRows(days);
    shown = { days, rows };
    energyHeading.textContent = `Energy per day: ${scopeWords(days.scope)}`;
    legend.replaceChildren(...legendItems(days.currency, days.scope));
    drawDaily();
    savings.replaceChildren(...savingsLines(days, rows));
    table.replaceChildren(dailyTable(rows, days.scope, days.currency, time, number));
    download.disabled = rows.length === 0;
    const averaged = columns.bucketSeconds
      ? `power averaged over ${plural(Math.round(columns.bucketSeconds / 60), "minute")} to fit the screen`
      : "power every 5 minutes";
    status.textContent = `${days.scope.label}: ${plural(rows.length, "day")} of energy, ${averaged}.`;
    status.dataset.points = String(columns.points);
    status.dataset.rendered = String(columns.time.length);
    status.dataset.days = String(rows.length);
    status.dataset.device = device.id;
    status.dataset.from = String(from);
    status.dataset.to = String(to);
  };

  download.addEventListener("click", () => {
    if (!shown) return;
    const { days, rows } = shown;
    const device = days.scope.id.replace(":", "-");
    const csv = dailyCsv(rows, monthsShown(days.savings, rows), {
      currency: days.currency,
      timeZone: days.timeZone,
      scope: days.scope,
    });
    const blob = new Blob([csv], { type: "text/csv" });
    const link = h("a", {
      href: URL.createObjectURL(blob),
      download: `energy-per-day-${device}-${rows[0]?.day ?? ""}-${rows[rows.length - 1]?.day ?? ""}.csv`,
    });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  });

  const pick = (span: number): void => {
    const device = scopes.find((one) => one.id === select.value) ?? scopes[0];
    if (!device) return;
    const to = device.last + 1;
    const from = span === 0 ? device.first : Math.max(device.first, to - span);
    load(device, from, to).catch((error: Error) => {
      status.textContent = error.message;
    });
  };
  for (const [label, span] of RANGES) {
    const button = h("button", { type: "button", "data-range": label.toLowerCase() }, label);
    button.addEventListener("click", () => pick(span));
    buttons.append(button);
  }
  select.addEventListener("change", () => pick(DAY));
  // The chart is drawn to its box's width: drawn again when the box changes (a rotated phone).
  const resize = new ResizeObserver(() => drawDaily());
  resize.observe(energy);
  getJson<{ devices: HistoryDevice[]; scopes: HistoryScope[] }>("history/devices")
    .then((answer) => {
      scopes = answer.scopes;
      if (scopes.length === 0) {
        status.textContent = "No 5-minute points in the store yet.";
        return;
      }
      select.replaceChildren(...scopes.map((one) => h("option", { value: one.id }, one.label)));
      pick(DAY);
    })
    .catch((error: Error) => {
      status.textContent = error.message;
    });
  return () => {
    resize.disconnect();
    for (const chart of charts.splice(0)) chart.destroy();
  };
};

/** The scope in words: whose figures these are and, for several inverters, that they are summed. */
function scopeWords(scope: HistoryScopeName): string {
  if (scope.kind === "inverter") return `this inverter (${scope.id})`;
  const summed = `${plural(scope.members.length, "inverter")} summed: ${scope.members.join(" + ")}`;
  return scope.kind === "plant"
    ? `this plant (${scope.id.slice("plant:".length)}, ${summed})`
    : `the house (${summed})`;
}

function legendItems(currency: string | null, scope: HistoryScopeName): HTMLElement[] {
  const whose = scope.kind === "inverter" ? "this inverter's" : scope.kind === "plant" ? "this plant's" : "the house's";
  return [
    h("li", {}, h("span", { class: "swatch import" }), "grid import (kWh)"),
    h("li", {}, h("span", { class: "swatch export" }), "grid export (kWh)"),
    h("li", {}, h("span", { class: "swatch cost" }), `${whose} cost (${currency ?? "no tariff"}), right axis`),
  ];
}

function money(currency: string | null): (value: number | null) => string {
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(navigator.language, currency ? { style: "currency", currency } : {});
  } catch {
    format = new Intl.NumberFormat(navigator.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  return (value) => (value === null ? "–" : format.format(value));
}

function savingsLines(days: DailyEnergy, rows: readonly DailyRow[]): HTMLElement[] {
  if (!days.savings)
    return [h("p", { class: "hint" }, "Savings need running rules with tariffs (rules.yaml): none are running.")];
  const months = monthsShown(days.savings, rows);
  if (months.house.length === 0)
    return [h("p", { class: "hint" }, "No savings yet: they come from metered half-hours of the inverters' counters.")];
  const format = money(days.currency);
  const first = days.savings.house.days[0]?.day;
  const partial =
    first !== undefined && (rows[0]?.day ?? first) < first
      ? h("p", { class: "hint" }, `Savings are metered for the months of the range's last 62 days: from ${first}.`)
      : null;
  const monthName = new Intl.DateTimeFormat(navigator.language, { month: "long", year: "numeric", timeZone: "UTC" });
  const named = (month: string, count: number) =>
    `${monthName.format(Date.parse(`${month}-15T00:00:00Z`))} (${plural(count, "day")} metered): `;
  const { scope } = days;
  const whose = scope.kind === "plant" ? "the plant's" : "the house's";
  const partsLines = months.parts.map((part) => {
    const own = months.own.find((one) => one.month === part.month)?.savedVsNoBattery ?? 0;
    const each = part.inverters.map((one) => `${one.device} ${format(one.savedVsNoBattery)}`).join(" + ");
    const apart = Math.abs(part.difference) >= 0.005;
    return h(
      "p",
      { class: "hint", "data-parts": part.month },
      `${monthName.format(Date.parse(`${part.month}-15T00:00:00Z`))}: its inverters' own savings (${each}) add up to `,
      h("strong", { "data-saved": "parts-sum" }, format(part.sum)),
      ...(apart
        ? [
            `; ${whose} own is ${format(own)}, `,
            h("strong", { "data-saved": "parts-difference" }, format(Math.abs(part.difference))),
            part.difference < 0 ? " less" : " more",
            ", from half-hours when one inverter's load outran its solar while another's solar outran its load (together they net, each alone does not).",
          ]
        : [`, ${whose} own saving.`]),
    );
  });
  const ownLines =
    scope.kind === "house"
      ? []
      : [
          h("h3", { id: "own-savings-heading" }, `Saved by the battery: ${scopeWords(scope)}`),
          h(
            "p",
            { class: "hint" },
            `Metered from ${scope.kind === "plant" ? "its inverters' own counters, summed" : "its own counters"}: its cost against the same ${scope.kind === "plant" ? "inverters" : "inverter"} with no battery (the grid carrying its load less its solar each half-hour); no standing charge (the house's connection's), no eco-only figure (the rules' battery is the house's one).`,
          ),
          h(
            "ul",
            { class: "savings", id: "own-savings" },
            ...months.own.map((month) =>
              h(
                "li",
                { "data-month": month.month },
                named(month.month, month.days),
                h("strong", { "data-saved": "own-no-battery" }, format(month.savedVsNoBattery)),
                " against no battery; its metered cost ",
                h("span", { "data-saved": "own-cost" }, format(month.actual)),
              ),
            ),
          ),
        ];
  return [
    ...ownLines,
    ...(scope.kind === "plant" ? partsLines : []),
    h("h3", {}, "Saved by the battery: the house"),
    h(
      "p",
      { class: "hint" },
      "Metered from every inverter's counters together, whichever inverter or plant is shown above; against eco only for the house alone (the battery's size and limits are the rules' one battery for the house); each month whole (this month to the last complete half-hour), the same whatever the range.",
    ),
    ...(partial ? [partial] : []),
    h(
      "ul",
      { class: "savings", id: "house-savings" },
      ...months.house.map((month) =>
        h(
          "li",
          { "data-month": month.month },
          named(month.month, month.days),
          h("strong", { "data-saved": "no-battery" }, format(month.savedVsNoBattery)),
          " against no battery, ",
          h("strong", { "data-saved": "eco-only" }, format(month.savedVsEcoOnly)),
          " against eco only; the house cost ",
          h("span", { "data-saved": "house-cost" }, format(month.actual)),
        ),
      ),
    ),
    ...(scope.kind === "house" ? partsLines : []),
  ];
}

function dailyTable(
  rows: readonly DailyRow[],
  scope: HistoryScopeName,
  currency: string | null,
  time: ReturnType<typeof localTime>,
  number: Intl.NumberFormat,
): HTMLElement {
  const format = money(currency);
  const kwh = (value: number | null) => (value === null ? "–" : number.format(value));
  const unit = currency ?? "cost";
  const columns = (titles: readonly string[]) => titles.map((title) => h("th", { scope: "col" }, title));
  // The house's own saving is the house's columns: only a part of it has a column of its own.
  const own = scope.kind !== "house";
  return scrollRegion(
    "Energy, cost and savings per day",
    h(
      "table",
      { class: "daily-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("td", {}),
          h(
            "th",
            { scope: "colgroup", colspan: "4", "data-group": "energy", "data-scope": scope.kind },
            capitalised(scopeWords(scope)),
          ),
          own
            ? h(
                "th",
                { scope: "colgroup", "data-group": "own-savings" },
                scope.kind === "plant"
                  ? "This plant's own saving (its counters)"
                  : "This inverter's own saving (its counters)",
              )
            : null,
          h(
            "th",
            { scope: "colgroup", colspan: "3", "data-group": "savings", "data-scope": "house" },
            "The house (every inverter, standing charge included)",
          ),
        ),
        h(
          "tr",
          {},
          ...columns([
            "Day",
            "Import kWh",
            "Export kWh",
            "Net kWh (export +)",
            `Cost (${unit})`,
            ...(own ? [`Saved vs no battery (${unit})`] : []),
            `Cost (${unit})`,
            `Saved vs no battery (${unit})`,
            `Saved vs eco only (${unit})`,
          ]),
        ),
      ),
      h(
        "tbody",
        {},
        ...[...rows]
          .reverse()
          .map((row) =>
            h(
              "tr",
              { "data-day": row.day },
              h(
                "th",
                { scope: "row" },
                time.day(row.start),
                row.inverters < scope.members.length
                  ? h(
                      "span",
                      { class: "hint", "data-cell": "counted" },
                      ` (${row.inverters} of ${scope.members.length} inverters)`,
                    )
                  : "",
              ),
              h("td", {}, kwh(row.importKwh)),
              h("td", {}, kwh(row.exportKwh)),
              h("td", {}, kwh(row.gridNetKwh)),
              h("td", { "data-cell": "cost" }, format(row.cost)),
              own ? h("td", { "data-cell": "own-saved-no-battery" }, format(row.ownSavedVsNoBattery)) : null,
              h("td", { "data-cell": "house-cost" }, format(row.houseCost)),
              h("td", { "data-cell": "saved-no-battery" }, format(row.savedVsNoBattery)),
              h("td", { "data-cell": "saved-eco-only" }, format(row.savedVsEcoOnly)),
            ),
          ),
      ),
    ),
  );
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
