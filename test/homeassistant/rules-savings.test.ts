import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { savingsBattery, savingsSummary } from "../../src/rules/index.js";
import { AgileTariff, FixedTariff, ZonesTariff } from "../../src/rules/tariffs/index.js";
import type { SavingsSummary } from "../../src/rules-runtime/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { checkHomeAssistantRules } from "../helpers/ha-rules/index.js";
import { recordMqtt } from "../helpers/ha-rules/recorder.js";
import { knownDays, TZ } from "../rules/savings-days.js";
import { baseTopic, FakeRuntime, ManualClock, startBridge } from "./rules-harness.js";

let broker: TestBroker;
let store: Store;
const dir = mkdtempSync(join(tmpdir(), "e2m-ha-savings-"));
beforeAll(async () => {
  broker = await startTestBroker();
  store = openStore(join(dir, "e2m.db"));
  // 14, 15 and 16 January 2026, each the known day of test/rules/savings-days.ts.
  store.history.write(knownDays(3));
});
afterAll(async () => {
  store.close();
  await broker.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The engine's seam with the daemon's real savings: the store above, the running tariffs. */
class SavingsRuntime extends FakeRuntime {
  constructor(
    clock: ManualClock,
    private readonly summary: (now: number) => SavingsSummary | undefined,
  ) {
    super([], () => ({ import: 0.3, export: 0.15 }), clock);
  }
  savings(now: number): SavingsSummary | undefined {
    return this.summary(now);
  }
}

interface SavingsState {
  saved_yesterday_vs_no_battery: number | null;
  saved_yesterday_vs_eco_only: number | null;
  saved_yesterday_last_reset: string | null;
  saved_month_vs_no_battery: number | null;
  saved_month_vs_eco_only: number | null;
  saved_month_last_reset: string | null;
  saved_yesterday_prices: string | null;
  saved_yesterday_estimated_half_hours: number | null;
  saved_yesterday_unpriced_half_hours: number | null;
  saved_month_prices: string | null;
  saved_month_estimated_half_hours: number | null;
  saved_month_unpriced_half_hours: number | null;
}

/** What the recorder heard once the bridge's own flush command came back: everything it published before. */
async function everythingRecorded(
  harness: { flush(): Promise<void> },
  recorder: Awaited<ReturnType<typeof recordMqtt>>,
  base: string,
) {
  await harness.flush();
  await recorder.waitFor((m) => m.topic === `${base}/rules/result` && m.payload.includes('"flush_1"'), 5_000);
  return recorder.messages;
}

/** Home Assistant's rules over what was recorded: what it would log. */
function homeAssistantFindings(recorded: Parameters<typeof checkHomeAssistantRules>[0], base: string) {
  return checkHomeAssistantRules(recorded, { discoveryPrefix: `${base}-ha`, statusTopic: `${base}-ha/status` });
}

describe("the savings sensors", () => {
  it("publish yesterday's and this month's savings from the store, and roll over at midnight quietly", async () => {
    const base = baseTopic();
    const clock = new ManualClock(Date.parse("2026-01-16T00:00:30Z"));
    const summary = savingsSummary(store.history, {
      tariffs: {
        import: new ZonesTariff(0.3, [{ price: 0.1, hours: "00:00-04:00" }], TZ),
        export: new FixedTariff(0.15),
      },
      timeZone: TZ,
      battery: savingsBattery({ charge_kw: 3, efficiency: 1 }, 10),
    });
    const runtime = new SavingsRuntime(clock, summary);
    // What Home Assistant would see, with the retain flags as published.
    const recorder = await recordMqtt(broker.url, [`${base}/#`, `${base}-ha/#`]);
    const harness = await startBridge(broker, base);
    try {
      await harness.bridge.attachRules(runtime, { clock });
      const first = await harness.observer.waitFor((m) => m.topic === `${base}/rules`);
      const state = (payload: string) => JSON.parse(payload) as SavingsState;
      // Each day: actual 0.80, no battery 4.00, eco only 2.768 (worked out in
      // test/commands/rules-savings.test.ts), so 3.20 and 1.968 saved a day.
      expect(state(first.payload)).toMatchObject({
        saved_yesterday_vs_no_battery: 3.2,
        saved_yesterday_vs_eco_only: 1.968,
        saved_yesterday_last_reset: "2026-01-15T00:00:00.000Z",
        saved_month_vs_no_battery: 6.4,
        saved_month_vs_eco_only: 3.936,
        saved_month_last_reset: "2026-01-01T00:00:00.000Z",
        saved_yesterday_prices: "published",
        saved_yesterday_estimated_half_hours: 0,
        saved_yesterday_unpriced_half_hours: 0,
        saved_month_prices: "published",
      });

      const mark = harness.observer.messages.length;
      clock.at = Date.parse("2026-01-17T00:00:30Z");
      await clock.tick();
      const next = await harness.seen(mark, (m) => m.topic === `${base}/rules`);
      expect(state(next.payload)).toMatchObject({
        saved_yesterday_vs_no_battery: 3.2,
        saved_yesterday_last_reset: "2026-01-16T00:00:00.000Z",
        saved_month_vs_no_battery: 9.6,
        saved_month_vs_eco_only: 5.904,
        saved_month_last_reset: "2026-01-01T00:00:00.000Z",
      });

      const recorded = await everythingRecorded(harness, recorder, base);
      expect(recorded.filter((m) => m.topic === `${base}/rules`).length).toBeGreaterThanOrEqual(2);
      expect(homeAssistantFindings(recorded, base)).toEqual([]);
    } finally {
      await harness.stop();
      await recorder.close();
    }
  });
  it("say when past days were priced with the tariff's fallback, or could not be priced at all", async () => {
    const base = baseTopic();
    const clock = new ManualClock(Date.parse("2026-01-16T00:00:30Z"));
    // Agile prices the daemon never fetched for these days: what a restart in mid-month leaves.
    const unfetched = (fallback: number | undefined) =>
      new AgileTariff(
        { refresh: 60_000, published_at: "16:00", scale: 1, file: join(dir, "absent.json") },
        TZ,
        fallback === undefined ? undefined : new FixedTariff(fallback),
      );
    const summaries = {
      fallback: savingsSummary(store.history, {
        tariffs: { import: unfetched(0.3), export: new FixedTariff(0.15) },
        timeZone: TZ,
        battery: savingsBattery({ charge_kw: 3, efficiency: 1 }, 10),
      }),
      none: savingsSummary(store.history, {
        tariffs: { import: unfetched(undefined), export: new FixedTariff(0.15) },
        timeZone: TZ,
        battery: savingsBattery({ charge_kw: 3, efficiency: 1 }, 10),
      }),
    };
    let which: keyof typeof summaries = "fallback";
    const runtime = new SavingsRuntime(clock, (now) => summaries[which](now));
    const recorder = await recordMqtt(broker.url, [`${base}/#`, `${base}-ha/#`]);
    const harness = await startBridge(broker, base);
    try {
      await harness.bridge.attachRules(runtime, { clock });
      const first = await harness.observer.waitFor((m) => m.topic === `${base}/rules`);
      // At the fallback's one flat price, 20 kWh at 0.30 less 8 exported at 0.15 either way: 0 saved, but priced.
      expect(JSON.parse(first.payload)).toMatchObject({
        saved_yesterday_vs_no_battery: 0,
        saved_yesterday_prices: "fallback",
        saved_yesterday_estimated_half_hours: 48,
        saved_yesterday_unpriced_half_hours: 0,
        saved_month_prices: "fallback",
        saved_month_estimated_half_hours: 96,
      });

      which = "none";
      const mark = harness.observer.messages.length;
      clock.at = Date.parse("2026-01-16T01:00:30Z");
      await clock.tick();
      const next = await harness.seen(mark, (m) => m.topic === `${base}/rules`);
      // No price and no fallback: the 0 is not a saving, and the sensors say so.
      expect(JSON.parse(next.payload)).toMatchObject({
        saved_yesterday_vs_no_battery: 0,
        saved_yesterday_prices: "incomplete",
        saved_yesterday_estimated_half_hours: 0,
        saved_yesterday_unpriced_half_hours: 48,
        saved_month_prices: "incomplete",
        // The 14th and 15th, and today's two half-hours metered by 01:00.
        saved_month_unpriced_half_hours: 98,
      });

      expect(homeAssistantFindings(await everythingRecorded(harness, recorder, base), base)).toEqual([]);
    } finally {
      await harness.stop();
      await recorder.close();
    }
  });
});
