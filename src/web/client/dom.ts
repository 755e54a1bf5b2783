type Child = Node | string | number | null | undefined | false;

/** A small element builder: h("p", { class: "x" }, "text", child). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

const SVG = "http://www.w3.org/2000/svg";

export function s(
  tag: string,
  attributes: Record<string, string | number> = {},
  ...children: (Node | string)[]
): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children) element.append(child);
  return element;
}

export function watts(value: number | null): string {
  if (value === null) return "–";
  return Math.abs(value) >= 1000 ? `${(value / 1000).toFixed(2)} kW` : `${Math.round(value)} W`;
}

export function clock(ms: number | undefined | null): string {
  if (ms === undefined || ms === null) return "never";
  return new Date(ms).toLocaleString(undefined, { dateStyle: "short", timeStyle: "medium" });
}

export function ago(ms: number | undefined | null, now = Date.now()): string {
  if (ms === undefined || ms === null) return "never";
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 90) return `${seconds} s ago`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}
