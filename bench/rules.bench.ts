import { startEnv } from "../test/rules/engine/helpers.js";

const START = Date.UTC(2025, 0, 14, 16, 0);
// Before 07:00: the next period (from that deadline to the next) plans a window of its own.
const MORNING = Date.UTC(2025, 0, 15, 6, 0);

const rules = (actor: string) => [
  "timezone: Europe/London",
  "tariffs:",
  "  import: { type: agile, file: agile.json }",
  "rules:",
  `  - name: overnight-${actor}`,
  '    when: { cheapest: { hours: 2, before: "07:00" } }',
  "    do:",
  "      - preset: timed-charge",
  '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: 100 }] }',
];

/** API requests one rule's window costs on the simulator: snapshot (or local record), write, read-back, restore. */
async function countWindow(actor: "owner" | "nosnap"): Promise<void> {
  const env = await startEnv({ start: START, rules: rules(actor), actor });
  try {
    const run = await env.startRuntime();
    const mark = env.requests.length;
    await run.advanceTo(MORNING);
    await run.runtime.stop();
    const windows = run.events.filter((event) => event.type === "window" && event.phase === "open").length;
    const used = env.requests.slice(mark);
    const byEndpoint = new Map<string, number>();
    for (const endpoint of used) byEndpoint.set(endpoint, (byEndpoint.get(endpoint) ?? 0) + 1);
    const detail = [...byEndpoint].map(([endpoint, count]) => `${endpoint} ${count}`).join(", ");
    const how = actor === "owner" ? "API snapshot" : "local record (no snapshot scopes)";
    console.log(`rules: ${used.length} API requests for ${windows} window(s), ${how}: ${detail}`);
  } finally {
    await env.stop();
  }
}

export async function rulesBenchmark(): Promise<void> {
  await countWindow("owner");
  await countWindow("nosnap");
}
