import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A clone of the repository alone must pass its tests and run its benches: nothing the project
 * runs may read the team's shared/ folder beside it. The evidence lives in test/fixtures/, each
 * folder with its sources (and its licence, where the source has one).
 */
const ROOT = join(import.meta.dirname, "../..");
const SCANNED = ["src", "test", "bench", "scripts"];
const CODE = /\.(ts|tsx|mts|js|mjs|cjs|json|ya?ml|sh)$/;
// Written as two pieces so this file does not match itself.
const OUTSIDE = new RegExp(["\\.\\./", "shared\\b"].join(""));

function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (entry === "node_modules" || entry === "fixtures") continue;
    if (statSync(path).isDirectory()) found.push(...filesUnder(path));
    else if (CODE.test(entry)) found.push(path);
  }
  return found;
}

describe("the repository carries its own evidence", () => {
  it("no source, test, bench or script names the shared folder beside the repository", () => {
    const offenders = SCANNED.flatMap((top) => filesUnder(join(ROOT, top)))
      .filter((file) => OUTSIDE.test(readFileSync(file, "utf8")))
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });

  it.each([
    ["real-responses", "README.md", 43],
    ["planner-year", "README.md", 5],
    ["local-captures", "LICENSE", 17],
    ["solar-forecasts", "LICENSE", 10],
    ["octopus", "README.md", 15],
  ])("test/fixtures/%s is in the repository with its %s", (folder, sourceFile, entries) => {
    const dir = join(ROOT, "test/fixtures", folder);
    expect(existsSync(join(dir, sourceFile))).toBe(true);
    expect(existsSync(join(dir, "README.md"))).toBe(true);
    const count = (path: string): number =>
      readdirSync(path).reduce(
        (sum, entry) => sum + (statSync(join(path, entry)).isDirectory() ? count(join(path, entry)) : 1),
        0,
      );
    expect(count(dir)).toBe(entries);
  });

  it("the solar forecast bodies keep their licences and sources", () => {
    const dir = join(ROOT, "test/fixtures/solar-forecasts");
    const licence = readFileSync(join(dir, "LICENSE"), "utf8");
    expect(licence).toMatch(/MIT License/);
    expect(licence).toMatch(/Eclipse Public License 2\.0/);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    for (const source of [
      "home-assistant-libs/forecast_solar",
      "frenck/python-open-meteo",
      "klaasnotfound/epex-spot-forecast",
      "openhab/openhab-addons",
    ])
      expect(readme).toContain(source);
  });

  it("the local captures keep their Apache-2.0 licence and attribution", () => {
    const dir = join(ROOT, "test/fixtures/local-captures");
    expect(readFileSync(join(dir, "LICENSE"), "utf8")).toMatch(/Apache License/);
    expect(readFileSync(join(dir, "README.md"), "utf8")).toContain("dewet22/givenergy-modbus");
  });
});
