import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEMO_STORE_FILE } from "../../src/demo/store.js";
import { openStore } from "../../src/store/index.js";
import { childOutput } from "../helpers/child-output.js";
import { eveningPeakPoints } from "../helpers/house-points.js";
import { settingsFreeEnv } from "../helpers/settings-free-env.js";

const CLI_ENTRY = fileURLToPath(new URL("../helpers/cli-entry.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** A Monday afternoon in November, GMT: the demo tariff's weekday winter peak is ahead. */
const NOW = "2026-11-16T12:00:00Z";

/** `energy2mqtt rules plan` as a user types it, on the embedded defaults (no configuration file). */
async function rulesPlan(storePath: string): Promise<{ code: number | null; out: string; err: string }> {
  // Where the store goes; the demo's own is demo.db beside it.
  const env = { ...settingsFreeEnv(), ENERGY2MQTT_STORE_PATH: storePath };
  const child = spawn(
    process.execPath,
    ["--import", "tsx", CLI_ENTRY, "rules", "plan", "--now", NOW, "--hours", "24"],
    {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const { code, stdout, stderr } = await childOutput(child);
  return { code, out: stdout, err: stderr };
}

/** The optimiser's table rows: a local time, an action, prices, SoC, ..., and a reason. */
function slotRows(out: string): string[] {
  return out.split("\n").filter((line) => /^ {2}2026-11-1\d \d\d:\d\d (charge|hold|self-use|export) /.test(line));
}

describe("rules plan on the demo house (no configuration)", () => {
  it("plans with the demo's own rules: the optimiser's half-hours, each with its reason, exit 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "e2m-demo-plan-"));
    const result = await rulesPlan(join(dir, "e2m.db"));
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toContain("optimiser (dry run)");
    expect(result.out).toMatch(/^ {2}time +action +import +export +SoC +load +solar +cost +total +reason$/m);
    const rows = slotRows(result.out);
    expect(rows).toHaveLength(48);
    // The night's cheap half-hours charge, and the row says why.
    const charge = rows.find((row) => row.startsWith("  2026-11-17 01:00 charge"));
    expect(charge).toMatch(
      / 0\.0850 .* charge: 8\.5p is (the cheapest half-hour|among the \d+ cheapest half-hours) before the \d\d:\d\d peak at \d+p$/,
    );
  }, 60_000);

  it("learns the house from the demo's store when the daemon has filled it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "e2m-demo-plan-"));
    const store = openStore(join(dir, DEMO_STORE_FILE));
    // A week of the demo inverter's 5-minute points: 400 W of use, 2 kW from 17:00 to 20:00.
    store.history.write(eveningPeakPoints({ device: "SD2024G001", until: Date.parse(NOW), days: 7, baseWatts: 400 }));
    store.close();
    const result = await rulesPlan(join(dir, "e2m.db"));
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      /the house's use and solar by time of day learned from [78] days of the store's history/,
    );
    // The evening's 2 kW at the 35p peak is served from the battery, and the reason says so.
    const evening = slotRows(result.out).find((row) => row.startsWith("  2026-11-16 17:00"));
    expect(evening).toMatch(/ 1\.00 .*the battery serves the house's 1\.00 kWh instead of import at 35p$/);
  }, 60_000);
});
