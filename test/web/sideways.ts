import type { Page } from "playwright-core";

/**
 * Every element that pokes out of the screen sideways, but for those inside a region that
 * scrolls on its own (a labelled table region) and those placed off it on purpose (the skip link).
 */
export const sidewaysOverflow = (page: Page, name: string): Promise<string[]> =>
  page.evaluate((pageName) => {
    const { document, innerWidth, getComputedStyle } = globalThis as unknown as {
      document: { querySelectorAll(s: string): ArrayLike<Element>; scrollingElement: { scrollWidth: number } };
      innerWidth: number;
      getComputedStyle(element: Element): { overflowX: string };
    };
    interface Element {
      readonly tagName: string;
      readonly className: unknown;
      readonly parentElement: Element | null;
      readonly scrollWidth: number;
      readonly clientWidth: number;
      querySelector(selector: string): unknown;
      getBoundingClientRect(): { left: number; right: number; width: number };
    }
    const scrolls = (element: Element): boolean => {
      for (let up = element.parentElement; up; up = up.parentElement)
        if (["auto", "scroll", "hidden"].includes(getComputedStyle(up).overflowX)) return true;
      return false;
    };
    const found: string[] = [];
    if (document.scrollingElement.scrollWidth > innerWidth)
      found.push(`${pageName}: the page scrolls sideways (${document.scrollingElement.scrollWidth} px)`);
    for (const element of Array.from(document.querySelectorAll("body *"))) {
      // A box that scrolls sideways says so: only the scroll regions, with their "Scroll sideways" cue shown.
      if (
        ["auto", "scroll"].includes(getComputedStyle(element).overflowX) &&
        element.scrollWidth > element.clientWidth + 1 &&
        element.parentElement?.querySelector(".scroll-cue:not([hidden])") == null
      )
        found.push(
          `${pageName}: ${element.tagName.toLowerCase()}.${String(element.className)} scrolls sideways unsaid`,
        );
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= 0) continue;
      if (box.right <= innerWidth + 0.5 && box.left >= -0.5) continue;
      if (!scrolls(element))
        found.push(
          `${pageName}: ${element.tagName.toLowerCase()}.${String(element.className)} reaches ${Math.round(box.right)} px`,
        );
    }
    return found;
  }, name);
