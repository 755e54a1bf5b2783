import { afterEach, describe, expect, it, vi } from "vitest";
import { CHARGER, type Harness, ofKind, startHarness } from "./harness.js";

describe("EV charger telemetry", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it("asks for the last 15 minutes of the measurands it shows", async () => {
    h = await startHarness();
    const meter = vi.spyOn(h.client.evChargers, "meterData");
    const { readings } = await h.start();
    expect(meter.mock.calls.map(([uuid, query]) => [uuid, query])).toEqual([
      [
        CHARGER,
        {
          start_time: "2025-06-18T08:45:00Z",
          end_time: "2025-06-18T09:01:00Z",
          measurands: [4, 13, 1, 21, 19, 20],
          meter_ids: [0],
        },
      ],
    ]);
    // The newest record of the window: the one of this very minute.
    expect(ofKind(readings, "ev.meter")[0]?.measuredAt).toBe(Date.parse("2025-06-18T09:00:00Z"));
  });

  it("reads the meter every meter period and the session only when the status changes", async () => {
    h = await startHarness();
    const { readings } = await h.start();
    const count = (endpoint: string) => h?.requests.filter((r) => r.endpoint === endpoint).length ?? 0;
    expect(count("Get Charging Sessions")).toBe(1);

    await h.advance(30 * 60_000);
    expect(count("Get Charger Meter Data")).toBe(7);
    expect(count("Get Charging Sessions")).toBe(1);

    // Offline, the status changes: the meter and the session are read at once.
    await h.admin(`/devices/${CHARGER}`, { offline: true });
    await h.advance(30_000);
    expect(count("Get Charger Meter Data")).toBe(8);
    expect(count("Get Charging Sessions")).toBe(2);
    expect(ofKind(readings, "ev.status").at(-1)?.values.online).toBe("OFF");

    // Unchanged status: nothing more.
    await h.advance(30_000);
    expect(count("Get Charging Sessions")).toBe(2);
  });
});
