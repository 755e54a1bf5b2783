import { describe, expect, it } from "vitest";
import { SettingCache } from "../../src/control/setting-cache.js";

describe("SettingCache", () => {
  it("forgets values older than the maximum age", () => {
    let now = 1_000;
    const cache = new SettingCache(() => now, 60_000);
    cache.remember("SD1", 71, 20);
    now += 60_000;
    expect(cache.get("SD1", 71)).toBe(20);
    now += 1;
    expect(cache.get("SD1", 71)).toBeUndefined();
  });

  it("keeps inverters apart and forgets on request", () => {
    const cache = new SettingCache(() => 0, 1_000);
    cache.remember("SD1", 71, 20);
    cache.remember("SD2", 71, 30);
    cache.forget("SD1", 71);
    expect([cache.get("SD1", 71), cache.get("SD2", 71)]).toEqual([undefined, 30]);
  });
});
