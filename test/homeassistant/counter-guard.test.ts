import { describe, expect, it } from "vitest";
import { CounterGuard } from "../../src/homeassistant/counter-guard.js";
import { createLogger } from "../../src/log/log.js";

const guard = () => new CounterGuard(createLogger("silent"));

describe("CounterGuard", () => {
  it("passes a counter that grows", () => {
    const g = guard();
    expect([10, 10, 12.5].map((v) => g.accept("inv", "total_solar_energy", v, "lifetime", "2026-01-01"))).toEqual([
      10, 10, 12.5,
    ]);
  });

  it("holds a lifetime counter that dips by a glitch, then follows it when it catches up", () => {
    const g = guard();
    const day = "2026-01-01";
    expect(g.accept("inv", "total_solar_energy", 100, "lifetime", day)).toBe(100);
    expect(g.accept("inv", "total_solar_energy", 0, "lifetime", day)).toBe(100);
    expect(g.accept("inv", "total_solar_energy", 100.4, "lifetime", day)).toBe(100.4);
  });

  it("takes a drop that lasts three readings as a real reset", () => {
    const g = guard();
    const day = "2026-01-01";
    g.accept("inv", "total_grid_import_energy", 500, "lifetime", day);
    expect(g.accept("inv", "total_grid_import_energy", 1, "lifetime", day)).toBe(500);
    expect(g.accept("inv", "total_grid_import_energy", 1.1, "lifetime", day)).toBe(500);
    expect(g.accept("inv", "total_grid_import_energy", 1.2, "lifetime", day)).toBe(1.2);
    expect(g.accept("inv", "total_grid_import_energy", 1.3, "lifetime", day)).toBe(1.3);
  });

  it("lets a daily counter reset on a new local day, and only then", () => {
    const g = guard();
    expect(g.accept("inv", "today_solar_energy", 8, "daily", "2026-01-01")).toBe(8);
    expect(g.accept("inv", "today_solar_energy", 2, "daily", "2026-01-01")).toBe(8);
    expect(g.accept("inv", "today_solar_energy", 0.1, "daily", "2026-01-02")).toBe(0.1);
  });

  it("holds a reading less than 0.1 kWh lower (the LAN's resolution after the cloud's) without a word, and never takes it as a reset", () => {
    const lines: string[] = [];
    const g = new CounterGuard(createLogger("info", { destination: { write: (line: string) => lines.push(line) } }));
    const day = "2026-01-01";
    expect(g.accept("inv", "total_solar_energy", 1234.56, "lifetime", day)).toBe(1234.56);
    // Five readings over the LAN at 0.1 kWh: held, not taken as a reset after three.
    for (let i = 0; i < 5; i++) expect(g.accept("inv", "total_solar_energy", 1234.5, "lifetime", day)).toBe(1234.56);
    expect(g.accept("inv", "total_solar_energy", 1234.6, "lifetime", day)).toBe(1234.6);
    expect(lines).toEqual([]);
    // A drop of 0.1 or more is still a glitch, and said once.
    expect(g.accept("inv", "total_solar_energy", 1234.5, "lifetime", day)).toBe(1234.6);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("went backwards");
  });

  it("passes null through and compares with the last real value", () => {
    const g = guard();
    g.accept("inv", "total_solar_energy", 50, "lifetime", "2026-01-01");
    expect(g.accept("inv", "total_solar_energy", null, "lifetime", "2026-01-01")).toBeNull();
    expect(g.accept("inv", "total_solar_energy", 49, "lifetime", "2026-01-01")).toBe(50);
  });
});
