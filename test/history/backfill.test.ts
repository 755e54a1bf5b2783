import { describe, expect, it } from "vitest";
import { RateBudget } from "../../src/cloud/index.js";
import { startBackfill } from "../../src/history/index.js";
import { cloudHistory } from "../../src/sources/index.js";
import { tempStore, useDemoAccount } from "./helpers.js";

const START = Date.UTC(2025, 2, 20, 12, 0, 0);
const INVERTERS = ["SD2024G001", "SE2024G101", "SE2024G102"];
const CHARGER = "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11";

describe("startBackfill", () => {
  const account = useDemoAccount(START);

  it("fills the last days on start, then only the days missing after an outage", async () => {
    const temp = tempStore("e2m-backfill-");
    const pointRequests: number[] = [];
    let passes = 0;
    const client = account.sim.clientFor("owner", {
      budget: new RateBudget({ limit: 100_000, windowMs: 60_000 }),
      onRequest: (event) => {
        if (event.endpoint === "Get Inverter Data Points") pointRequests.push(passes);
      },
    });
    const backfill = startBackfill({
      source: cloudHistory(client),
      history: temp.store.history,
      inventory: () => account.inventory,
      days: 4,
      clock: account.sim.simulator.clock,
      onPass: () => passes++,
    });
    try {
      await backfill.idle();
      expect(passes).toBe(1);
      for (const serial of INVERTERS) {
        expect([...temp.store.history.completeDays("inverter.point", serial)].sort()).toEqual([
          "2025-03-17",
          "2025-03-18",
          "2025-03-19",
        ]);
      }
      expect(temp.store.history.completeDays("ev.meter", CHARGER).size).toBe(3);
      expect(pointRequests.length).toBe(INVERTERS.length * 4);

      // Two days without the cloud, then the device is back.
      account.sim.simulator.clock.advance(2 * 86_400_000);
      backfill.trigger();
      await backfill.idle();
      expect(passes).toBe(2);
      // 2025-03-19 was complete already: only the 20th (partial before), 21st and today are read.
      expect(pointRequests.filter((pass) => pass === 1).length).toBe(INVERTERS.length * 3);
      for (const serial of INVERTERS) {
        const complete = temp.store.history.completeDays("inverter.point", serial);
        for (const day of ["2025-03-17", "2025-03-18", "2025-03-19", "2025-03-20", "2025-03-21"]) {
          expect(complete.has(day), `${serial} ${day}`).toBe(true);
        }
        expect(complete.has("2025-03-22")).toBe(false);
      }
      // No duplicates: one row per 5-minute point from the 17th to now.
      const direct = await client.inverterData.dataPoints("SD2024G001", "2025-03-20", { pageSize: 1000 }).all();
      const rows = [
        ...temp.store.history.query({
          kind: "inverter.point",
          device: "SD2024G001",
          from: Date.UTC(2025, 2, 20),
          to: Date.UTC(2025, 2, 21),
        }),
      ];
      expect(rows.length).toBe(direct.length);
      expect(new Set(rows.map((row) => row.at)).size).toBe(rows.length);
    } finally {
      await backfill.stop();
      temp.cleanup();
    }
  });

  it("stops: a pass under way is aborted and later triggers do nothing", async () => {
    const temp = tempStore("e2m-backfill-stop-");
    let requests = 0;
    const client = account.sim.clientFor("owner", {
      budget: new RateBudget({ limit: 100_000, windowMs: 60_000 }),
      onRequest: () => requests++,
    });
    const backfill = startBackfill({
      source: cloudHistory(client),
      history: temp.store.history,
      inventory: () => account.inventory,
      days: 30,
      clock: account.sim.simulator.clock,
    });
    await backfill.stop();
    const after = requests;
    backfill.trigger();
    await backfill.idle();
    expect(requests).toBe(after);
    // Far fewer than the 30 days x 3 inverters a full pass reads.
    expect(temp.store.history.completeDays("inverter.point", "SD2024G001").size).toBeLessThan(30);
    temp.cleanup();
  });
});
