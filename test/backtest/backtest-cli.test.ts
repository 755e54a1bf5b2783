import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { loadYear } from "../../bench/planner-year/data.js";
import { backtestResultSchema } from "../../src/backtest/result.js";
import { main } from "../../src/cli/main.js";
import { openStore } from "../../src/store/index.js";
import { BENCH_RULES, backtestHouse, writeYearToStore } from "../helpers/planner-year-store.js";

/*
 * `energy2mqtt backtest` through the CLI on a small store (three days of the planner-year
 * fixture): the table, --json, the option errors, and Octopus's past prices fetched once from a
 * local Octopus-shaped server and kept in the store.
 */

const ROOT = join(import.meta.dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "e2m-backtest-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const year = loadYear(ROOT);
const DAYS = 3;
const house = backtestHouse(join(dir, "house"), BENCH_RULES);
const RANGE = ["--from", "2023-01-01", "--to", "2023-01-03"];
const FAST = ["--policies", "actual,no-battery,eco-only,optimiser"];

function captureStd() {
  let out = "";
  let err = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
  return { out: () => out, err: () => err };
}

async function cli(args: readonly string[]) {
  const std = captureStd();
  const code = await main(["backtest", "--config", house.config, ...args]);
  vi.restoreAllMocks();
  return { code, out: std.out(), err: std.err() };
}

/** An Octopus-shaped API on 127.0.0.1 serving the fixture's import prices for AGILE-24-10-01 in region J. */
function octopusServer(requests: string[]): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    requests.push(request.url ?? "");
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/v1/products/AGILE-24-10-01/electricity-tariffs/E-1R-AGILE-24-10-01-J/standard-unit-rates/") {
      response.writeHead(404).end();
      return;
    }
    const from = Date.parse(url.searchParams.get("period_from") ?? "");
    const to = Date.parse(url.searchParams.get("period_to") ?? "");
    const results = [];
    for (let t = year.starts.length - 1; t >= 0; t--) {
      const start = year.starts[t] as number;
      if (start < from || start >= to) continue;
      results.push({
        value_exc_vat: ((year.importPrice[t] as number) * 100) / 1.05,
        value_inc_vat: (year.importPrice[t] as number) * 100,
        valid_from: new Date(start).toISOString(),
        valid_to: new Date(start + 30 * 60_000).toISOString(),
        payment_method: null,
      });
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ count: results.length, next: null, previous: null, results }));
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

describe("energy2mqtt backtest", () => {
  beforeAll(() => writeYearToStore(year, 0, DAYS * 48, house.store));
  beforeEach(() => vi.stubEnv("ENERGY2MQTT_CONFIG", ""));
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it("prints the assumptions and a row per day with each policy's cost and saving", async () => {
    const result = await cli([...RANGE, ...FAST, "--by", "day"]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toContain("Backtest 2023-01-01 to 2023-01-03 (Europe/London), by day");
    expect(result.out).toContain("battery: 9.5 kWh (the rules file's battery.capacity_kwh)");
    expect(result.out).toMatch(/^period\s+actual\s+no battery\s+eco only\s+optimiser$/m);
    for (const day of ["2023-01-01", "2023-01-02", "2023-01-03"])
      expect(result.out).toMatch(new RegExp(`^${day}\\s+-?\\d+\\.\\d{2} \\(-?\\d+\\.\\d{2}\\)`, "m"));
  });

  it("--json gives the result's schema, the days summing to the range", async () => {
    const days = backtestResultSchema.parse(JSON.parse((await cli([...RANGE, ...FAST, "--by", "day", "--json"])).out));
    const range = backtestResultSchema.parse(
      JSON.parse((await cli([...RANGE, ...FAST, "--by", "range", "--json", "--battery-kwh", "5"])).out),
    );
    expect(days.rows).toHaveLength(3 * 4);
    expect(range.battery.capacityKwh).toBe(5);
    const sum = (policy: string) =>
      days.rows.filter((row) => row.policy === policy).reduce((total, row) => total + row.costGbp, 0);
    const whole = (policy: string) => range.rows.find((row) => row.policy === policy)?.costGbp;
    // Battery size does not change the house without a battery, nor what the meter read.
    expect(whole("no-battery")).toBeCloseTo(sum("no-battery"), 9);
    expect(whole("actual")).toBeCloseTo(sum("actual"), 9);
    // A smaller battery saves less in eco.
    expect(whole("eco-only")).toBeGreaterThan(sum("eco-only"));
  });

  it.each([
    [["--from", "2023-1-1"], "--from must be a date written YYYY-MM-DD"],
    [["--from", "2023-01-05", "--to", "2023-01-01"], "--from 2023-01-05 is after --to 2023-01-01"],
    [["--battery-kwh", "-3"], "--battery-kwh must be a positive number of kWh"],
    [["--by", "week"], "--by must be one of day, month, range"],
    [["--policies", "actual,magic"], "--policies must list policies among actual, no-battery"],
    [["--tariff", "agile"], "--tariff agile: expected NAME:PRODUCT"],
    [["--tariff", "agile:agile-24"], "--tariff agile:agile-24: importProduct: expected an Octopus product code"],
    [["--tariff", "agile:AGILE-24-10-01"], "--tariff needs --region"],
    [["--tariff", "agile:AGILE-24-10-01", "--region", "I"], "--region must be an Octopus region letter"],
    [["--from", "2022-01-01", "--to", "2022-01-02"], "has no metered half-hours from 2022-01-01 to 2022-01-02"],
  ])("refuses %j with exit 2, saying what to fix", async (args, message) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.out).toBe("");
    expect(result.err).toContain(message);
  });

  it("fetches an Octopus product's past prices once and keeps them in the store", async () => {
    const requests: string[] = [];
    const octopus = await octopusServer(requests);
    try {
      const args = [
        ...RANGE,
        ...FAST,
        "--by",
        "range",
        "--json",
        "--tariff",
        "agile:AGILE-24-10-01",
        "--region",
        "J",
        "--octopus-url",
        octopus.url,
      ];
      const first = await cli(args);
      expect(first.err).toBe("");
      expect(first.code).toBe(0);
      expect(requests).toHaveLength(1);
      expect(requests[0]).toContain("period_from=2023-01-01T00:00:00Z&period_to=2023-01-04T00:00:00Z");
      const result = backtestResultSchema.parse(JSON.parse(first.out));
      expect(result.tariffs.map((tariff) => tariff.name)).toEqual(["configured", "agile"]);
      // The server serves the very prices the store holds as published (Octopus's kept to a millionth of
      // a pound), and the export is the configured one's.
      for (const row of result.rows.filter((one) => one.tariff === "agile")) {
        const configured = result.rows.find((one) => one.tariff === "configured" && one.policy === row.policy);
        expect(row.costGbp).toBeCloseTo(configured?.costGbp ?? Number.NaN, 3);
      }
      const store = openStore(house.store);
      try {
        expect(
          store.archivedPrices.between("E-1R-AGILE-24-10-01-J", year.starts[0] as number, Number.MAX_SAFE_INTEGER),
        ).toHaveLength(DAYS * 48);
      } finally {
        store.close();
      }

      const second = await cli(args);
      expect(second.code).toBe(0);
      expect(requests).toHaveLength(1);
      expect(JSON.parse(second.out).rows).toEqual(result.rows);
    } finally {
      octopus.server.close();
    }
  });

  it("says which product and region Octopus does not know, exit 1", async () => {
    const requests: string[] = [];
    const octopus = await octopusServer(requests);
    try {
      const result = await cli([
        ...RANGE,
        ...FAST,
        "--tariff",
        "go:GO-VAR-22-10-14",
        "--region",
        "C",
        "--octopus-url",
        octopus.url,
      ]);
      expect(result.code).toBe(1);
      expect(result.err).toContain("--tariff go: HTTP 404: Octopus has no tariff E-1R-GO-VAR-22-10-14-C");
    } finally {
      octopus.server.close();
    }
  });
});
