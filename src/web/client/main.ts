import "uplot/dist/uPlot.min.css";
import "./app.css";
import type { LiveSnapshot } from "../api-types.js";
import { openStream } from "./api.js";
import type { Page, Stream, StreamName } from "./page.js";
import { renderBacktest } from "./pages/backtest.js";
import { renderChanges } from "./pages/changes.js";
import { renderHealth } from "./pages/health.js";
import { renderHistory } from "./pages/history.js";
import { renderNow } from "./pages/now.js";
import { renderPlan } from "./pages/plan.js";

const PAGES: Record<string, { title: string; render: Page }> = {
  now: { title: "Now", render: renderNow },
  plan: { title: "Plan", render: renderPlan },
  history: { title: "History", render: renderHistory },
  backtest: { title: "Backtest", render: renderBacktest },
  changes: { title: "Changes", render: renderChanges },
  health: { title: "Health", render: renderHealth },
};

/** One EventSource for the whole page; pages listen while they are shown. */
function liveStream(): Stream {
  const listeners = new Map<StreamName, Set<(data: unknown) => void>>();
  const latest = new Map<StreamName, unknown>();
  const status = document.getElementById("stream");
  const events = openStream();
  events.onopen = () => {
    if (status) status.textContent = "live";
    status?.classList.add("on");
  };
  events.onerror = () => {
    if (status) status.textContent = "reconnecting…";
    status?.classList.remove("on");
  };
  for (const name of ["live", "change", "rule", "rules"] as const) {
    events.addEventListener(name, (event) => {
      const data = JSON.parse((event as MessageEvent<string>).data) as unknown;
      latest.set(name, data);
      for (const listener of listeners.get(name) ?? []) listener(data);
    });
  }
  return {
    on(name, listener) {
      const set = listeners.get(name) ?? new Set();
      set.add(listener);
      listeners.set(name, set);
      if (latest.has(name)) listener(latest.get(name));
      return () => set.delete(listener);
    },
    last: () => latest.get("live") as LiveSnapshot | undefined,
  };
}

const stream = liveStream();
let cleanup: () => void = () => undefined;

function show(): void {
  const name = location.hash.slice(1) || "now";
  const page = PAGES[name] ?? PAGES.now;
  const main = document.getElementById("main");
  if (!page || !main) return;
  cleanup();
  main.replaceChildren();
  document.title = `${page.title} · energy2mqtt`;
  for (const link of document.querySelectorAll("nav a"))
    if (link.getAttribute("href") === `#${name}`) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  cleanup = page.render(main, stream);
}

window.addEventListener("hashchange", show);
show();
