import uPlot from "uplot";
import type { DailyEnergy, HistoryColumns, HistoryDevice } from "../../api-types.js";
import { getJson } from "../api.js";
import { h } from "../dom.js";
import type { Page } from "../page.js";

const DAY = 86_400_000;
const RANGES: [string, number][] = [
  ["Day", DAY],
  ["Week", 7 * DAY],
  ["Month", 31 * DAY],
  ["Year", 366 * DAY],
  ["All", 0],
];

export const renderHistory: Page = (main) => {
  const status = h("p", { class: "hint", role: "status" }, "Loading…");
  const select = h("select", { id: "history-device", "aria-label": "Inverter" });
  const buttons = h("div", { class: "ranges", role: "group", "aria-label": "Range" });
  const power = h("div", { class: "chart", id: "power-chart" });
  const energy = h("div", { class: "chart", id: "energy-chart" });
  main.append(
    h("h2", {}, "History"),
    h("div", { class: "toolbar" }, h("label", { for: "history-device" }, "Inverter "), select, buttons),
    status,
    h("h3", {}, "Power and SoC (5-minute points; drag to zoom, double-click to reset)"),
    power,
    h("h3", {}, "Energy per day"),
    energy,
  );
  const charts: uPlot[] = [];
  let devices: HistoryDevice[] = [];
  const width = () => Math.max(300, main.clientWidth - 8);

  const load = async (device: HistoryDevice, from: number, to: number): Promise<void> => {
    status.textContent = "Loading…";
    const started = performance.now();
    const [columns, days] = await Promise.all([
      getJson<HistoryColumns>("history", { device: device.device, from, to, width: width() }),
      getJson<DailyEnergy>("history/days", { device: device.device, from, to }),
    ]);
    for (const chart of charts.splice(0)) chart.destroy();
    charts.push(powerChart(power, columns, width(), (lo, hi) => void load(device, lo, hi)));
    charts.push(energyChart(energy, days, width()));
    const ms = Math.round(performance.now() - started);
    status.textContent = `${columns.points.toLocaleString()} points${columns.bucketSeconds ? `, averaged per ${Math.round(columns.bucketSeconds / 60)} min to fit the screen` : ""} (${ms} ms)`;
    status.dataset.points = String(columns.points);
    status.dataset.rendered = String(columns.time.length);
  };

  const pick = (span: number): void => {
    const device = devices.find((one) => one.device === select.value) ?? devices[0];
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
  getJson<{ devices: HistoryDevice[] }>("history/devices")
    .then((answer) => {
      devices = answer.devices;
      if (devices.length === 0) {
        status.textContent = "No 5-minute points in the store yet.";
        return;
      }
      select.replaceChildren(...devices.map((d) => h("option", { value: d.device }, d.device)));
      pick(DAY);
    })
    .catch((error: Error) => {
      status.textContent = error.message;
    });
  return () => {
    for (const chart of charts.splice(0)) chart.destroy();
  };
};

function powerChart(
  target: HTMLElement,
  c: HistoryColumns,
  width: number,
  zoom: (from: number, to: number) => void,
): uPlot {
  target.replaceChildren();
  const data: uPlot.AlignedData = [
    Float64Array.from(c.time),
    c.solar as (number | null)[],
    c.battery as (number | null)[],
    c.grid as (number | null)[],
    c.home as (number | null)[],
    c.soc as (number | null)[],
  ];
  const line = (label: string, stroke: string, scale = "W"): uPlot.Series => ({
    label,
    stroke,
    scale,
    width: 1.5,
    spanGaps: false,
  });
  return new uPlot(
    {
      width,
      height: 300,
      series: [
        {},
        line("Solar W", "#e6a700"),
        line("Battery W", "#2e9d5b"),
        line("Grid W", "#d1495b"),
        line("Home W", "#3d7dd8"),
        line("SoC %", "#9a5cd0", "%"),
      ],
      scales: { "%": { range: [0, 100] } },
      axes: [{}, { scale: "W", label: "W" }, { scale: "%", side: 1, label: "%", grid: { show: false } }],
      hooks: {
        setSelect: [
          (u) => {
            if (u.select.width < 5) return;
            const from = u.posToVal(u.select.left, "x");
            const to = u.posToVal(u.select.left + u.select.width, "x");
            // Finer points for the zoomed range, when they were averaged.
            if (c.bucketSeconds) zoom(Math.floor(from * 1000), Math.ceil(to * 1000));
          },
        ],
      },
    },
    data,
    target,
  );
}

function energyChart(target: HTMLElement, days: DailyEnergy, width: number): uPlot {
  target.replaceChildren();
  const colours: Record<string, string> = {
    pv_to_home: "#e6a700",
    pv_to_battery: "#b8d430",
    pv_to_grid: "#f4d35e",
    grid_to_home: "#d1495b",
    grid_to_battery: "#a33",
    battery_to_home: "#2e9d5b",
    battery_to_grid: "#1b6",
  };
  const names = Object.keys(days.flows);
  const bars = uPlot.paths.bars?.({ size: [0.8, 40] });
  const currency = days.currency || "cost";
  return new uPlot(
    {
      width,
      height: 240,
      series: [
        {},
        ...names.map((name) => ({
          label: `${name.replaceAll("_", " ")} kWh`,
          stroke: colours[name] ?? "#888",
          fill: `${colours[name] ?? "#888888"}55`,
          ...(bars ? { paths: bars } : {}),
        })),
        { label: "import kWh", stroke: "#d1495b", width: 2 },
        { label: "export kWh", stroke: "#2e86ab", width: 2 },
        { label: `cost ${currency}`, stroke: "#6a4c93", width: 2, dash: [6, 4], scale: "cost" },
      ],
      axes: [{}, { label: "kWh" }, { scale: "cost", side: 1, label: currency, grid: { show: false } }],
    },
    [
      Float64Array.from(days.time),
      ...names.map((name) => (days.flows[name] ?? []) as (number | null)[]),
      [...days.importKwh],
      [...days.exportKwh],
      [...days.cost],
    ],
    target,
  );
}
