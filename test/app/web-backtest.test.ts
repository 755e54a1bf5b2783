import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { backtestArgs } from "../../src/app/web-backtest.js";
import { backtestResultSchema } from "../../src/backtest/result.js";
import { configSchema } from "../../src/config/index.js";
import { DEMO_RULES_FILE } from "../../src/demo/rules.js";
import { withDemoStore } from "../../src/demo/store.js";
import { addDays } from "../../src/time/index.js";
import { type ChildOutput, childOutput } from "../helpers/child-output.js";
import { settingsFreeEnv } from "../helpers/settings-free-env.js";

/*
 * The web page's backtest runs `energy2mqtt backtest` with the options backtestArgs gives. On the
 * demo house (no configuration; its own rules, which the daemon names) it named the rules and the
 * store, which made the demo's store a user's: no year was written and the page showed the two
 * days the daemon had stored.
 */

/** tsx found from here, not from the folder the CLI runs in. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const demo = withDemoStore(configSchema.parse({}));
const dir = mkdtempSync(join(tmpdir(), "e2m-web-backtest-"));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `energy2mqtt backtest ARGS --json` from the sources, in `cwd`, with no settings from this machine. */
function backtestJson(args: readonly string[], cwd: string): Promise<ChildOutput> {
  const child = spawn(
    process.execPath,
    ["--import", TSX, resolve("test/helpers/cli-entry.ts"), "backtest", ...args, "--json"],
    { cwd, env: settingsFreeEnv(), stdio: ["ignore", "pipe", "pipe"] },
  );
  return childOutput(child);
}

describe("the options the web page's backtest runs with", () => {
  it("names nothing for the demo house on its own rules, its rules and store for one on a rules file of the user's", () => {
    expect(backtestArgs(demo, undefined, DEMO_RULES_FILE)).toEqual([]);
    expect(backtestArgs(demo, undefined, undefined)).toEqual([]);
    expect(backtestArgs(demo, undefined, "/home/me/rules.yaml")).toEqual([
      "--rules",
      "/home/me/rules.yaml",
      "--store",
      demo.store.path,
    ]);
    expect(backtestArgs(demo, "/home/me/configuration.yaml", DEMO_RULES_FILE)).toEqual([
      "--config",
      "/home/me/configuration.yaml",
    ]);
  });

  it("gives the demo house's page a year: the CLI on those options writes the demo's year and replays it", async () => {
    const args = [...backtestArgs(demo, undefined, DEMO_RULES_FILE), "--policies", "actual,no-battery"];
    const run = await backtestJson(args, dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("the demo house's year of history written to data/demo.db");
    const result = backtestResultSchema.parse(JSON.parse(run.stdout));
    // A year back from yesterday (whatever day this runs), all but the days the simulator itself holds.
    expect(result.from).toBe(addDays(result.to, -364));
    expect(result.halfHours).toBeGreaterThanOrEqual(365 * 48 - 2);
    expect(result.missingHalfHours).toBeLessThan(8 * 48);
  }, 60_000);
});
