import { h } from "./dom.js";

/**
 * Wide content (a table, the plan's chart) in a box that scrolls sideways instead of shrinking:
 * the box is a labelled region keyboard users can focus and scroll, and a visible cue and an edge
 * shadow say there is more while the content is wider than the box.
 */
export function scrollRegion(label: string, content: HTMLElement | SVGElement, extraClass = ""): HTMLElement {
  const cue = h("p", { class: "scroll-cue", "aria-hidden": "true", hidden: true }, "Scroll sideways for more →");
  const box = h(
    "div",
    { class: `scroll ${extraClass}`.trim(), role: "region", "aria-label": `${label} (scrolls sideways)`, tabindex: 0 },
    content,
  );
  const wrapper = h("div", { class: "scroll-wrap" }, cue, box);
  const check = () => {
    const more = box.scrollWidth > box.clientWidth + 1;
    cue.hidden = !more;
    wrapper.classList.toggle("overflows", more);
    wrapper.classList.toggle("at-end", box.scrollLeft + box.clientWidth >= box.scrollWidth - 1);
  };
  new ResizeObserver(check).observe(box);
  box.addEventListener("scroll", check, { passive: true });
  requestAnimationFrame(check);
  return wrapper;
}
