import type { RuleStatus } from "../../../rules-runtime/index.js";
import type { LiveDevice, LiveHouseFlows, LiveSnapshot, LiveSystem } from "../../api-types.js";
import { ago, h } from "../dom.js";
import { type FlowDiagram, flowDiagram } from "../flow.js";
import { zonedTime, zoneName } from "../local-time.js";
import type { Page } from "../page.js";
import { presentSentence } from "../present-words.js";
import { scrollRegion } from "../scroll-region.js";
import { clockRepairs } from "./clock-repairs.js";
import { carCard, pricesLine } from "./now-car.js";

const PATH_WORDS = { local: "its dongle on the LAN", cloud: "the cloud" } as const;
const HALF_HOUR_MS = 30 * 60_000;

/** "Battery level: 49% (SE2024G101), 72% (SE2024G102)": each battery of a system, by its inverter. */
function batteryLevels(system: Pick<LiveSystem, "batteries">): HTMLElement {
  const known = system.batteries.filter((battery) => battery.soc !== null);
  const words = known.length
    ? system.batteries
        .map((battery) =>
          battery.soc === null ? `not read (${battery.serial})` : `${Math.round(battery.soc)}% (${battery.serial})`,
        )
        .join(", ")
    : "not read yet";
  return h(
    "p",
    { class: "battery-levels", "data-socs": known.map((battery) => battery.soc).join(" ") },
    h("strong", {}, system.batteries.length > 1 ? "Battery levels: " : "Battery level: "),
    words,
  );
}

/** "All 2 systems added up" or "1 of 2 systems has given a reading: the sums leave the other out". */
function houseScope(house: LiveHouseFlows): string {
  const one = house.systems === 1;
  if (house.reading === house.systems)
    return one ? "The one inverter or plant." : `Every inverter and plant added up (${house.systems} systems).`;
  return `${house.reading} of ${house.systems} systems have given a reading: the sums leave the others out for now.`;
}

/** "Inverter SD2024G001 (GIV-HY5.0)" or "EMS plant EM2024E001 (inverters SE2024G101 GIV-AC3.0, ...)". */
export function systemTitle(system: LiveSystem): string {
  if (system.kind === "inverter") return `Inverter ${system.serial}${system.model ? ` (${system.model})` : ""}`;
  const members = system.members.map((member) => `${member.serial}${member.model ? ` ${member.model}` : ""}`);
  return `EMS plant ${system.serial}${members.length ? ` (inverters ${members.join(", ")})` : ""}`;
}

export const renderNow: Page = (main, stream) => {
  const status = h("ul", { class: "now-status", "aria-label": "Rules and battery" });
  const repairs = h("div", { class: "repairs" });
  const house = h("section", { class: "system house", "data-system": "house", "aria-labelledby": "house-title" });
  const systems = h("div", { class: "systems" });
  const cars = h("div", { class: "cars" });
  const zone = h("p", { class: "hint zone" });
  const devices = h("tbody");
  main.append(
    h("h2", {}, "Now"),
    repairs,
    house,
    status,
    h("p", { class: "hint" }, "Each inverter and plant on its own, as the house above adds them up:"),
    systems,
    cars,
    zone,
    h(
      "p",
      { class: "hint" },
      "Arrows show which way power goes; a thicker, faster line carries more. The words say it too: no figure carries a sign.",
    ),
    h("h3", {}, "Devices"),
    scrollRegion(
      "Devices",
      h(
        "table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, "Device"),
            h("th", {}, "Available"),
            h("th", {}, "Path"),
            h("th", {}, "Last update"),
            h("th", {}, "Faults"),
          ),
        ),
        devices,
      ),
    ),
  );
  const diagrams = new Map<string, FlowDiagram>();
  const present = h("p", { class: "present", "data-status": "present" });
  const scope = h("p", { class: "hint house-scope" });
  const prices = h("div", { class: "prices-now" });
  const houseLevels = h("div", { class: "house-levels" });
  let houseDiagram: FlowDiagram | undefined;
  let rules: readonly RuleStatus[] = [];
  let last: { snapshot: LiveSnapshot; receivedAt: number } | undefined;
  // The daemon's clock, which a demo or a test may run elsewhere than the wall's.
  const daemonNow = (): number => (last ? last.snapshot.now + (Date.now() - last.receivedAt) : Date.now());

  const drawHouse = (snapshot: LiveSnapshot): void => {
    const title = "The whole house";
    if (!houseDiagram?.update(snapshot.house)) {
      houseDiagram = flowDiagram(snapshot.house, title);
      house.replaceChildren(
        h("h3", { id: "house-title" }, title),
        scope,
        houseDiagram.element,
        houseLevels,
        present,
        prices,
      );
    }
    scope.textContent = houseScope(snapshot.house);
    present.replaceChildren(h("strong", {}, "Now: "), presentSentence(snapshot.house));
    houseLevels.replaceChildren(batteryLevels(snapshot.house));
    prices.replaceChildren(pricesLine(snapshot.prices, snapshot.timeZone));
    cars.replaceChildren(...snapshot.cars.map(carCard));
  };

  const drawSystems = (snapshot: LiveSnapshot): void => {
    const seen = new Set<string>();
    const sections: HTMLElement[] = [];
    for (const system of snapshot.systems) {
      seen.add(system.id);
      const title = systemTitle(system);
      let diagram = diagrams.get(system.id);
      if (!diagram?.update(system)) {
        diagram = flowDiagram(system, title);
        diagrams.set(system.id, diagram);
      }
      const existing = systems.querySelector<HTMLElement>(`[data-system="${system.id}"]`);
      const section = existing ?? h("section", { class: "system", "data-system": system.id });
      section.replaceChildren(
        h("h3", {}, title),
        h(
          "p",
          { class: "hint system-path", "data-path": system.path },
          `Read over ${PATH_WORDS[system.path]}`,
          system.at === null
            ? "; no reading yet"
            : `; last reading ${zonedTime(system.at, snapshot.timeZone, snapshot.now)}`,
        ),
        diagram.element,
        batteryLevels(system),
        h(
          "p",
          { class: "battery-mode", "data-mode": system.mode?.mode ?? "unknown" },
          h("strong", {}, "Battery mode: "),
          system.mode ? `${system.mode.words} (${system.mode.why})` : "not read yet",
        ),
      );
      sections.push(section);
    }
    for (const id of diagrams.keys()) if (!seen.has(id)) diagrams.delete(id);
    if (sections.length === 0) sections.push(h("p", {}, "No inverter or EMS plant found in the account yet."));
    const same = sections.length === systems.children.length && sections.every((one, i) => systems.children[i] === one);
    if (!same) systems.replaceChildren(...sections);
    zone.textContent = `Times in ${zoneName(snapshot.timeZone, snapshot.now)}.`;
  };

  const drawStatus = (): void => {
    if (!last) return;
    const { timeZone } = last.snapshot;
    const now = daemonNow();
    const time = (ms: number) => zonedTime(ms, timeZone, now);
    const enabled = rules.filter((rule) => rule.enabled);
    // The rule that wins a shared control (higher priority) first.
    const open = enabled
      .filter((rule) => rule.nextWindow && rule.nextWindow.start <= now && now < rule.nextWindow.end)
      .sort((a, b) => b.priority - a.priority);
    const upcoming = enabled
      .filter((rule) => rule.nextWindow && rule.nextWindow.start > now)
      .sort((a, b) => (a.nextWindow?.start ?? 0) - (b.nextWindow?.start ?? 0));
    // The running rules word their window's actions as the Plan page does (no plan asked for here).
    const actionsOf = (rule: RuleStatus): string =>
      rule.nextWindow?.readable.length ? `: ${rule.nextWindow.readable.join(", ")}` : "";
    const dry = (rule: RuleStatus) => (rule.dryRun ? " (dry run: logged, not sent)" : "");
    const items: HTMLElement[] = [];
    if (rules.length === 0)
      items.push(h("li", { "data-status": "rules" }, "No rules are loaded: the daemon only reads the house."));
    else if (open.length)
      for (const rule of open)
        items.push(
          h(
            "li",
            { "data-status": "active" },
            h("strong", {}, "Active rule: "),
            `${rule.name} until ${time(rule.nextWindow?.end ?? now)}${actionsOf(rule)}${dry(rule)}`,
          ),
        );
    else items.push(h("li", { "data-status": "active" }, h("strong", {}, "Active rule: "), "none right now"));
    const next = upcoming[0];
    if (next?.nextWindow)
      items.push(
        h(
          "li",
          { "data-status": "next", "data-at": next.nextWindow.start },
          h("strong", {}, "Next planned action: "),
          `${time(next.nextWindow.start)} ${next.name}${actionsOf(next)}${dry(next)}`,
        ),
      );
    else if (rules.length)
      items.push(h("li", { "data-status": "next" }, h("strong", {}, "Next planned action: "), "none planned"));
    // The optimiser's plan for this half-hour is a forecast, said as the plan's: the present is the house's sentence above.
    for (const rule of enabled)
      if (rule.planNow) {
        const { start, reason } = rule.planNow;
        items.push(
          h(
            "li",
            { "data-status": "optimiser", "data-at": start },
            h("strong", {}, `${rule.name}'s plan for ${time(start)}–${time(start + HALF_HOUR_MS)}: `),
            reason,
          ),
        );
      }
    status.replaceChildren(...items);
  };

  /** Redrawn only when they change, so that a reader's place in them is kept between updates. */
  let repairsShown = "";
  const drawRepairs = (snapshot: LiveSnapshot): void => {
    const shown = JSON.stringify(snapshot.devices.map((device) => device.clockProblem ?? null));
    if (shown === repairsShown) return;
    repairsShown = shown;
    repairs.replaceChildren(...clockRepairs(snapshot.devices));
  };

  const draw = (data: unknown): void => {
    const snapshot = data as LiveSnapshot;
    last = { snapshot, receivedAt: Date.now() };
    drawHouse(snapshot);
    drawSystems(snapshot);
    drawStatus();
    drawRepairs(snapshot);
    devices.replaceChildren(...snapshot.devices.map((device) => deviceRow(device, daemonNow())));
  };
  const offLive = stream.on("live", draw);
  const offRules = stream.on("rules", (data) => {
    rules = data as RuleStatus[];
    drawStatus();
  });
  const ticker = setInterval(() => {
    const latest = stream.last();
    if (latest) devices.replaceChildren(...latest.devices.map((device) => deviceRow(device, daemonNow())));
    drawStatus();
  }, 5000);
  return () => {
    offLive();
    offRules();
    clearInterval(ticker);
  };
};

function deviceRow(device: LiveDevice, now: number): HTMLTableRowElement {
  const state = device.available === undefined ? "unknown" : device.available ? "online" : "offline";
  return h(
    "tr",
    { "data-device": device.id },
    h("td", {}, device.name),
    h("td", { class: `availability ${state}`, "data-available": state, title: device.reason }, state),
    h("td", { "data-path": device.path }, device.path === "local" ? "LAN" : "cloud"),
    h(
      "td",
      device.stale
        ? { class: "stale", "data-stale": "true", title: "no fresh values for more than twice the poll interval" }
        : {},
      device.stale ? `${ago(device.lastUpdate, now)} (stale)` : ago(device.lastUpdate, now),
    ),
    faultCell(device.faults),
  );
}

/** An inverter's active faults in words; empty for a device whose faults are not read. */
function faultCell(faults: readonly string[] | undefined): HTMLTableCellElement {
  if (faults === undefined) return h("td", {});
  if (faults.length === 0) return h("td", { "data-faults": "none" }, "none");
  return h("td", { class: "fault", "data-faults": "active" }, faults.join(", "));
}
