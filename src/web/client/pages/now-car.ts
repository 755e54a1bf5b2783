import type { LiveCar, LivePrices } from "../../api-types.js";
import { h, watts } from "../dom.js";
import { planFormat } from "./plan-format.js";

const PATH_WORDS: Readonly<Record<LiveCar["path"], string>> = {
  OCPP: "OCPP (the charger's own link to the daemon)",
  Modbus: "Modbus on the LAN",
  cloud: "the cloud",
  LAN: "the LAN",
};

/** "Price now: import 27p, export 15p per kWh", from the tariffs; null when no rules run. */
export function pricesLine(prices: LivePrices | null, timeZone: string): HTMLElement {
  if (!prices)
    return h(
      "p",
      { class: "prices", "data-prices": "none" },
      h("strong", {}, "Price now: "),
      "no tariff (no rules are loaded)",
    );
  const price = planFormat(timeZone, prices.currency).price;
  const part = (name: string, value: number | null) => `${name} ${value === null ? "not known" : price(value)}`;
  return h(
    "p",
    {
      class: "prices",
      "data-prices": "known",
      "data-import": prices.import ?? "",
      "data-export": prices.export ?? "",
    },
    h("strong", {}, "Price now: "),
    `${part("import", prices.import)}, ${part("export", prices.export)} per kWh`,
  );
}

function field(name: string, key: string, value: string): HTMLElement[] {
  return [h("dt", {}, name), h("dd", { "data-car-field": key }, value)];
}

/** The mode in evcc's words where one of ours means the same, with the charger's own beside it. */
function modeWords(mode: LiveCar["mode"]): string {
  if (!mode) return "not read yet";
  return mode.evcc ? `${mode.evcc} (the charger's ${mode.own})` : mode.own;
}

function targetWords(target: LiveCar["target"]): string {
  if (!target) return "none (no rule plans this car)";
  const what =
    target.soc !== null ? `${Math.round(target.soc)}%` : target.kwh !== null ? `${target.kwh} kWh` : "not known yet";
  return target.by ? `${what} by ${target.by}` : what;
}

/** One charger's car: plugged or not, its SoC, this session's energy, the target and deadline, the mode, the path. */
export function carCard(car: LiveCar): HTMLElement {
  const plugged = car.plugged === null ? "not known" : car.plugged ? "plugged in" : "not plugged in";
  return h(
    "section",
    { class: "car", "data-car": car.id, "aria-labelledby": `car-${car.id}` },
    h("h3", { id: `car-${car.id}` }, `Car on ${car.name}`),
    h(
      "dl",
      {},
      ...field("Plugged", "plugged", `${plugged}${car.status ? ` (${car.status})` : ""}`),
      ...field("Charging", "power", car.power === null ? "not read yet" : watts(car.power)),
      ...field("Car's battery", "soc", car.soc === null ? "not known" : `${Math.round(car.soc)}%`),
      ...field(
        car.sessionOpen === false ? "Last session" : "This session",
        "session",
        car.sessionKwh === null ? "no session yet" : `${car.sessionKwh.toFixed(2)} kWh`,
      ),
      ...field("Target", "target", targetWords(car.target)),
      ...field("Mode", "mode", modeWords(car.mode)),
      ...field("Path", "path", PATH_WORDS[car.path]),
    ),
  );
}
