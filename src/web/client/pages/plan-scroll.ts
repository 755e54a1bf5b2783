import { h } from "../dom.js";

/**
 * A wide thing (the chart, a table) in a box of its own that scrolls sideways on a narrow
 * screen instead of shrinking: focusable so the keyboard scrolls it, named for screen readers,
 * with shadows at the edges and a line saying it scrolls while there is more to see.
 */
export function scrollRegion(label: string, content: HTMLElement | SVGElement, extraClass = ""): HTMLElement {
  const box = h("div", { class: `plan-scroll ${extraClass}`.trim(), tabindex: 0, role: "region", "aria-label": label });
  box.append(content);
  const hint = h("p", { class: "scroll-hint", hidden: true }, "Scroll sideways for the rest ⇆");
  const update = () => {
    const more = box.scrollWidth > box.clientWidth + 1;
    hint.hidden = !more;
    box.classList.toggle("overflowing", more);
  };
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(update).observe(box);
  requestAnimationFrame(update);
  return h("div", { class: "plan-scroll-wrap" }, hint, box);
}
