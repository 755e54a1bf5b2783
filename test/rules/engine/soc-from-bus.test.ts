import { afterEach, describe, expect, it } from "vitest";
import { type Env, type Run, startEnv } from "./helpers.js";

// 16:00 UTC on a winter Tuesday; the window is planned for the night, so nothing opens at once.
const START = Date.UTC(2025, 0, 14, 16, 0);
const RULES = [
  "timezone: Europe/London",
  "battery: { capacity_kwh: 9.5, charge_kw: 2.5 }",
  "tariffs:",
  "  import: { type: agile, file: agile.json }",
  "rules:",
  "  - name: overnight-top-up",
  '    when: { battery: { target_soc: 90, before: "07:00", after: "22:00" } }',
  "    do:",
  "      - preset: timed-charge",
  '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: 100 }] }',
];

describe("the battery's charge comes from telemetry, never asked of the cloud by the rules", () => {
  let env: Env | undefined;
  const runs: Run[] = [];
  afterEach(async () => {
    for (const run of runs.splice(0)) await run.runtime.stop();
    await env?.stop();
    env = undefined;
  });

  it("a plan made before the SoC was known is made again when it comes, as if it had been known", async () => {
    env = await startEnv({ start: START, rules: RULES });
    const late = await env.startRuntime({ firstRound: false });
    runs.push(late);
    const unknown = late.runtime.list()[0]?.nextWindow;
    await late.pushInverter({ soc: 85 });
    const replanned = late.runtime.list()[0]?.nextWindow;
    await late.runtime.stop();

    const known = await env.startRuntime({ firstRound: { soc: 85 } });
    runs.push(known);
    expect(replanned).toEqual(known.runtime.list()[0]?.nextWindow);
    expect(replanned).not.toEqual(unknown);
    expect(env.requests.filter((endpoint) => endpoint.includes("System Data"))).toEqual([]);
  });
});
