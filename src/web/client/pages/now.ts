import type { LiveDevice, LiveSnapshot } from "../../api-types.js";
import { ago, h, watts } from "../dom.js";
import type { Page } from "../page.js";

const FLOWS: { key: keyof LiveSnapshot["flows"]; label: string; hint: (value: number) => string }[] = [
  { key: "solar", label: "Solar", hint: () => "producing" },
  { key: "battery", label: "Battery", hint: (v) => (v > 0 ? "discharging" : v < 0 ? "charging" : "idle") },
  { key: "grid", label: "Grid", hint: (v) => (v > 0 ? "importing" : v < 0 ? "exporting" : "idle") },
  { key: "home", label: "Home", hint: () => "using" },
  { key: "ev", label: "EV charger", hint: (v) => (v > 0 ? "charging" : "idle") },
  { key: "ems", label: "EMS plant", hint: () => "load" },
];

export const renderNow: Page = (main, stream) => {
  const cards = h("section", { class: "flows", "aria-label": "Power flows" });
  const devices = h("tbody");
  main.append(
    h("h2", {}, "Now"),
    cards,
    h("h3", {}, "Devices"),
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        {},
        h("thead", {}, h("tr", {}, h("th", {}, "Device"), h("th", {}, "Available"), h("th", {}, "Last update"))),
        devices,
      ),
    ),
  );
  const draw = (data: unknown): void => {
    const snapshot = data as LiveSnapshot;
    cards.replaceChildren(
      ...FLOWS.map(({ key, label, hint }) => {
        const value = snapshot.flows[key];
        return h(
          "article",
          { class: `flow flow-${key}`, "data-flow": key },
          h("h3", {}, label),
          h("p", { class: "value", "data-value": value ?? "" }, watts(value)),
          key === "battery" && snapshot.flows.soc !== null
            ? h("p", { class: "soc", "data-soc": snapshot.flows.soc }, `${Math.round(snapshot.flows.soc)} %`)
            : null,
          h("p", { class: "hint" }, value === null ? "no data" : hint(value)),
        );
      }),
    );
    devices.replaceChildren(...snapshot.devices.map(deviceRow));
  };
  const off = stream.on("live", draw);
  const ticker = setInterval(() => {
    const last = stream.last();
    if (last) devices.replaceChildren(...last.devices.map(deviceRow));
  }, 5000);
  return () => {
    off();
    clearInterval(ticker);
  };
};

function deviceRow(device: LiveDevice): HTMLTableRowElement {
  const state = device.available === undefined ? "unknown" : device.available ? "online" : "offline";
  return h(
    "tr",
    { "data-device": device.id },
    h("td", {}, device.name),
    h("td", { class: `availability ${state}`, "data-available": state, title: device.reason }, state),
    h(
      "td",
      device.stale
        ? { class: "stale", "data-stale": "true", title: "no fresh values for more than twice the poll interval" }
        : {},
      device.stale ? `${ago(device.lastUpdate)} (stale)` : ago(device.lastUpdate),
    ),
  );
}
