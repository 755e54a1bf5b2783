import type { FlowFigures } from "../api-types.js";
import { h, s, watts } from "./dom.js";

/** Below this a flow is drawn idle: a meter's noise is not a flow. */
export const IDLE_W = 10;

type FlowName = "solar" | "battery" | "grid" | "home" | "ev";

/** Which way power goes on a line: into the inverter or plant (`in`), out of it (`out`), or none. */
type Direction = "in" | "out" | "idle";

interface Flow {
  readonly name: FlowName;
  readonly label: string;
  readonly watts: number | null;
  readonly direction: Direction;
  /** "exporting", "charging", ...: the direction in words, so that no sign is needed. */
  readonly words: string;
}

/** The one sign convention, the MQTT entities': battery discharge positive, grid export positive. */
export function flowsOf(system: FlowFigures): Flow[] {
  const idle = (value: number | null) => value === null || Math.abs(value) < IDLE_W;
  const flow = (
    name: FlowName,
    label: string,
    value: number | null,
    positive: [Direction, string],
    negative: [Direction, string],
  ): Flow => {
    if (value === null) return { name, label, watts: null, direction: "idle", words: "no data" };
    if (idle(value)) return { name, label, watts: value, direction: "idle", words: "idle" };
    const [direction, words] = value > 0 ? positive : negative;
    return { name, label, watts: value, direction, words };
  };
  const flows = [
    flow("solar", "Solar", system.solar, ["in", "producing"], ["out", "using"]),
    flow("battery", "Battery", system.battery, ["in", "discharging"], ["out", "charging"]),
    flow("grid", "Grid", system.grid, ["out", "exporting"], ["in", "importing"]),
    flow("home", "Home", system.home, ["out", "using"], ["in", "feeding back"]),
  ];
  if (system.evName !== null) flows.push(flow("ev", "Car", system.ev, ["out", "charging"], ["in", "discharging"]));
  return flows;
}

/** "exporting 1.20 kW": the size without a sign, the direction in words. */
export function flowText(flow: Flow): string {
  if (flow.watts === null) return "no data";
  return flow.direction === "idle" ? "idle" : `${flow.words} ${watts(Math.abs(flow.watts))}`;
}

const HUB = { x: 180, y: 150 };
const PLACES: Record<FlowName, { x: number; y: number }> = {
  solar: { x: 180, y: 42 },
  grid: { x: 52, y: 150 },
  home: { x: 308, y: 150 },
  battery: { x: 180, y: 258 },
  ev: { x: 308, y: 258 },
};
const NODE_R = 30;

/** Arrows in three sizes, so that a thick line's shows beside it and a thin line's does not cover its node. */
const ARROWS = [
  { suffix: "s", size: 11, upTo: 4 },
  { suffix: "m", size: 15, upTo: 6.5 },
  { suffix: "l", size: 20, upTo: Number.POSITIVE_INFINITY },
] as const;
const arrowFor = (width: number): string => ARROWS.find((arrow) => width <= arrow.upTo)?.suffix ?? "l";

/** Thicker and faster as the power grows; the square root keeps 100 W visible beside 5 kW. */
function lineStyle(value: number): { width: number; seconds: number } {
  const kw = Math.abs(value) / 1000;
  return {
    width: Math.min(9, 2 + kw * 1.6),
    seconds: Math.max(0.6, Math.min(4, 1.3 / Math.sqrt(Math.max(kw, 0.05)))),
  };
}

interface Parts {
  readonly group: SVGElement;
  readonly line: SVGElement;
  readonly node: SVGElement;
  readonly value: SVGElement;
  readonly words: SVGElement;
  readonly item: HTMLElement;
  readonly itemText: Text;
}

/** Points the line the way power goes, so that the dashes and the arrow run along it. */
function drawLine(parts: Parts, flow: Flow, markerId: string): void {
  const at = PLACES[flow.name];
  const [from, to] = flow.direction === "in" ? [at, HUB] : [HUB, at];
  const mid = { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 };
  const style = flow.watts === null || flow.direction === "idle" ? { width: 2, seconds: 0 } : lineStyle(flow.watts);
  const points = `${from.x},${from.y} ${mid.x},${mid.y} ${to.x},${to.y}`;
  // Set only what changed: setting the same points again would restart the dashes' animation.
  if (parts.line.getAttribute("points") !== points) parts.line.setAttribute("points", points);
  parts.line.setAttribute("class", `flow-line ${flow.direction}`);
  parts.line.setAttribute("stroke-width", style.width.toFixed(1));
  parts.line.style.setProperty("--flow-seconds", `${style.seconds.toFixed(2)}s`);
  if (flow.direction === "idle") parts.line.removeAttribute("marker-mid");
  else parts.line.setAttribute("marker-mid", `url(#${markerId}-${arrowFor(style.width)})`);
  parts.group.setAttribute("data-direction", flow.direction);
  parts.group.setAttribute("data-watts", flow.watts === null ? "" : String(flow.watts));
}

function drawNode(parts: Parts, flow: Flow, extra: string | null): void {
  parts.node.setAttribute("class", `flow-node flow-${flow.name} ${flow.direction}`);
  parts.value.textContent = flow.watts === null ? "–" : watts(Math.abs(flow.watts));
  parts.words.textContent = flow.direction === "idle" ? flow.words : `${flow.words}${extra ? ` · ${extra}` : ""}`;
  parts.item.setAttribute("data-direction", flow.direction);
  parts.item.setAttribute("data-watts", flow.watts === null ? "" : String(flow.watts));
  parts.itemText.textContent = ` ${flowText(flow)}${flow.name === "battery" && extra ? `, ${extra} full` : ""}`;
}

let diagrams = 0;

/** One inverter's, plant's or the whole house's flow diagram: built once, then updated in place as the live values come. */
export interface FlowDiagram {
  readonly element: HTMLElement;
  /** False when the system's flows changed shape (a car appeared): build a new diagram. */
  update(system: FlowFigures): boolean;
}

/** The flow diagram of one inverter or plant: SVG lines animated by the live values, and the same in words. */
export function flowDiagram(system: FlowFigures, title: string): FlowDiagram {
  diagrams += 1;
  const markerId = `flow-arrow-${diagrams}`;
  const names = flowsOf(system).map((flow) => flow.name);
  const parts = new Map<FlowName, Parts>();
  const lines: SVGElement[] = [];
  const nodes: SVGElement[] = [];
  const items: HTMLElement[] = [];
  for (const flow of flowsOf(system)) {
    const at = PLACES[flow.name];
    const lineElement = s("polyline", { class: "flow-line" });
    const group = s("g", { "data-flow": flow.name }, lineElement);
    const value = s("text", { x: at.x, y: at.y + 11, class: "node-value" });
    // Below the node, but beside the top one, whose line leaves from below.
    const words =
      flow.name === "solar"
        ? s("text", { x: at.x + NODE_R + 6, y: at.y + 4, class: "node-words beside" })
        : s("text", { x: at.x, y: at.y + NODE_R + 14, class: "node-words" });
    const nodeElement = s(
      "g",
      { "data-node": flow.name },
      s("circle", { cx: at.x, cy: at.y, r: NODE_R }),
      s("text", { x: at.x, y: at.y - 5, class: "node-label" }, flow.label),
      value,
      words,
    );
    const itemText = document.createTextNode("");
    const item = h(
      "li",
      { "data-flow": flow.name },
      h(
        "span",
        { class: "flow-label" },
        `${flow.label}${flow.name === "ev" && system.evName ? ` (${system.evName})` : ""}`,
      ),
      itemText,
    );
    parts.set(flow.name, { group, line: lineElement, node: nodeElement, value, words, item, itemText });
    lines.push(group);
    nodes.push(nodeElement);
    items.push(item);
  }
  const svg = s(
    "svg",
    { class: "flow-diagram", viewBox: "0 0 360 310", role: "img" },
    s(
      "defs",
      {},
      ...ARROWS.map(({ suffix, size }) =>
        s(
          "marker",
          {
            id: `${markerId}-${suffix}`,
            viewBox: "0 0 10 10",
            refX: 5,
            refY: 5,
            markerWidth: size,
            markerHeight: size,
            orient: "auto",
            markerUnits: "userSpaceOnUse",
          },
          s("path", { d: "M0,0 L10,5 L0,10 z", class: "flow-arrow" }),
        ),
      ),
    ),
    ...lines,
    s("circle", { cx: HUB.x, cy: HUB.y, r: 14, class: "flow-hub" }),
    ...nodes,
  );
  const update = (next: FlowFigures): boolean => {
    const flows = flowsOf(next);
    if (flows.map((flow) => flow.name).join() !== names.join()) return false;
    const soc = next.soc === null ? null : `${Math.round(next.soc)}%`;
    for (const flow of flows) {
      const part = parts.get(flow.name);
      if (!part) continue;
      drawLine(part, flow, markerId);
      drawNode(part, flow, flow.name === "battery" ? soc : null);
    }
    const summary = flows
      .map((flow) => `${flow.label} ${flowText(flow)}${flow.name === "battery" && soc ? ` at ${soc}` : ""}`)
      .join("; ");
    svg.setAttribute("aria-label", `${title}: ${summary}`);
    return true;
  };
  update(system);
  return { element: h("div", { class: "flow-box" }, svg, h("ul", { class: "flow-words" }, ...items)), update };
}
