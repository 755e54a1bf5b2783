import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { EventBus } from "../../src/bus/event-bus.js";
import type { DeviceSource, Inventory } from "../../src/sources/index.js";
import { inventoryFeature } from "../../src/telemetry/index.js";
import { VirtualClock } from "../../src/time/index.js";
import { fakeHouse } from "../sources/fake.js";

const MINUTE = 60_000;

describe("the device lists' refresh", () => {
  it("runs one refresh at a time: a clock that jumps hours on does not start one per missed interval", async () => {
    const house = fakeHouse();
    const first: Inventory = await house.source.discover();
    let calls = 0;
    let release: () => void = () => undefined;
    const slow: DeviceSource = {
      ...house.source,
      discover: () => {
        calls += 1;
        return new Promise<Inventory>((resolve) => {
          release = () => resolve(first);
        });
      },
    };
    const clock = new VirtualClock(Date.parse("2026-11-16T12:00:00Z"));
    const bus = new EventBus(() => undefined);
    const told: boolean[] = [];
    bus.on("inventoryChanged", "test", ({ devicesChanged }) => {
      told.push(devicesChanged);
    });
    const feature = inventoryFeature({
      source: slow,
      bus,
      first,
      everyMs: 10 * MINUTE,
      logger: pino({ level: "silent" }),
      clock,
    });
    await feature.start();
    // Five hours at once (a resumed laptop, the demo's clock moved on): 30 intervals are due.
    clock.advance(5 * 60 * MINUTE);
    expect(calls).toBe(1);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toEqual([false]);
    // Once it answered, the next interval refreshes again.
    clock.advance(10 * MINUTE);
    expect(calls).toBe(2);
    release();
    await feature.stop();
  });
});
