import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { runRulesSavingsCommand } from "../../src/commands/rules-savings.js";
import { openStore } from "../../src/store/index.js";
import { VirtualClock } from "../../src/time/index.js";
import { capture } from "../helpers/capture.js";
import { knownDays } from "../rules/savings-days.js";
import { OctopusServer } from "../rules/tariffs/octopus-server.js";

/*
 * Past Agile days without a published price: the command asks the Octopus API from the first day
 * asked for, and the local server answers with the recorded page of region H whatever the period,
 * which holds 11 May 2025 20:00Z to 13 May 22:00Z only. The days before it stand for days the API
 * could not give: priced with the fallback, and said so.
 */

const AGILE = "AGILE-24-10-01";
const server = new OctopusServer();
const dir = mkdtempSync(join(tmpdir(), "e2m-savings-octopus-"));
// 13 May 2025, 12:00 UTC: "today", never the wall clock's.
const clock = new VirtualClock(Date.UTC(2025, 4, 13, 12));

beforeAll(async () => {
  await server.start();
  server.serve(AGILE, `E-1R-${AGILE}-H`, "standard-unit-rates", "agile-24-10-01-H.standard-unit-rates.json");
  server.serve(AGILE, `E-1R-${AGILE}-H`, "standing-charges", "agile-24-10-01.standing-charges.json");
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

function setup(name: string, fallback: string): string {
  const home = join(dir, name);
  mkdirSync(home);
  const rules = [
    "timezone: Europe/London",
    "battery: { capacity_kwh: 10, charge_kw: 3, efficiency: 1 }",
    "tariffs:",
    `  import: { type: octopus, product: ${AGILE}, region: H, base_url: "${server.baseUrl}"${fallback} }`,
    "rules: []",
  ];
  writeFileSync(join(home, "rules.yaml"), `${rules.join("\n")}\n`);
  const store = join(home, "e2m.db");
  writeFileSync(join(home, "configuration.yaml"), `rules: rules.yaml\nstore: { path: ${store} }\n`);
  // A real SQLite file: the known day's meter readings from 9 May (UTC) to 13 May.
  const opened = openStore(store);
  opened.history.write(knownDays(4, Date.UTC(2025, 4, 9)));
  opened.close();
  return join(home, "configuration.yaml");
}

async function savings(config: string) {
  const out = capture();
  const err = capture();
  const code = await runRulesSavingsCommand(
    { config, from: "2025-05-10", to: "2025-05-12" },
    out.stream,
    err.stream,
    clock,
  );
  return { code, out: out.text(), err: err.text() };
}

const row = (out: string, start: string) =>
  out
    .split("\n")
    .find((line) => line.startsWith(start))
    ?.split(/ +/);

describe("rules savings over past Agile days", () => {
  beforeEach(() => vi.stubEnv("ENERGY2MQTT_CONFIG", ""));
  afterEach(() => vi.unstubAllEnvs());

  it("prices the days without published prices with the fallback, and marks them", async () => {
    const result = await savings(setup("fallback", ", fallback: 0.25"));
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    // Asked from 10 May, 00:00 BST: the API keeps past prices.
    expect(server.requests).toContain(
      `/v1/products/${AGILE}/electricity-tariffs/E-1R-${AGILE}-H/standard-unit-rates/?period_from=2025-05-09T23:00:00Z&page_size=1500`,
    );
    // 10 May: no published price, 20 kWh imported at the fallback's 0.25 and the day's standing
    // charge of 47.60616p: 5.48 with the battery and without (flat prices save nothing).
    expect(row(result.out, "2025-05-10")).toEqual([
      "2025-05-10",
      "48/48",
      "55%",
      "5.48",
      "5.48",
      expect.any(String),
      "0.00",
      expect.any(String),
      "fallback",
      "48",
    ]);
    // 11 May: Agile's prices from 21:00 BST (20:00Z) on, the 42 half-hours before at the fallback.
    expect(row(result.out, "2025-05-11")?.slice(-2)).toEqual(["fallback", "42"]);
    expect(row(result.out, "2025-05-12")?.at(-1)).toBe("published");
    expect(row(result.out, "2025-05 total")?.slice(-2)).toEqual(["fallback", "90"]);
    expect(result.out).toContain(
      "Half-hours priced with the tariff's fallback, not a published price: 2025-05-10 (48), 2025-05-11 (42)",
    );
  });

  it("without a fallback, leaves them out and says so: never a silent 0", async () => {
    const result = await savings(setup("none", ""));
    expect(result.code).toBe(0);
    // The standing charge alone: the day's 48 half-hours had no price.
    expect(row(result.out, "2025-05-10")?.slice(3, 5)).toEqual(["0.48", "0.48"]);
    expect(row(result.out, "2025-05-10")?.slice(-2)).toEqual(["none", "48"]);
    expect(row(result.out, "2025-05-11")?.slice(-2)).toEqual(["none", "42"]);
    expect(row(result.out, "2025-05-12")?.at(-1)).toBe("published");
    expect(result.out).toContain(
      "Half-hours without an import price, left out of all three costs (give the import tariff a fallback: to price them): 2025-05-10 (48), 2025-05-11 (42)",
    );
  });
});
