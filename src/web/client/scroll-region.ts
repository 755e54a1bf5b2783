import { h } from "./dom.js";

/**
 * A wide table in a box that scrolls sideways: the box is a labelled region keyboard users can
 * focus and scroll, and a visible cue says there is more while the table is wider than the box.
 */
export function scrollRegion(label: string, content: HTMLElement): HTMLElement {
  const cue = h("p", { class: "scroll-cue", "aria-hidden": "true", hidden: true }, "Scroll sideways for more →");
  const box = h(
    "div",
    { class: "scroll", role: "region", "aria-label": `${label} (scrolls sideways)`, tabindex: 0 },
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
  return wrapper;
}
