import { afterEach, describe, expect, it, vi } from "vitest";
import { NotFoundError } from "../../src/cloud/errors.js";
import { inverterDataEndpoints } from "../../src/cloud/sections/inverter-data.js";
import { type Harness, ofKind, startHarness } from "./harness.js";

describe("inverter data when the latest endpoints answer 404", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it("reads live values from today's newest data point, asking only for new ones", async () => {
    h = await startHarness();
    const live = vi
      .spyOn(h.client.inverterData, "systemDataLatest")
      .mockRejectedValue(new NotFoundError(inverterDataEndpoints.systemDataLatest));
    const points = vi.spyOn(h.client.inverterData, "dataPoints");
    const { readings } = await h.start();

    // 10:00 in London: the newest point is 09:55 local, the last of page 10 of 12-point pages.
    const first = ofKind(readings, "inverter.live");
    expect(first).toHaveLength(1);
    expect(first[0]?.measuredAt).toBe(Date.parse("2025-06-18T08:55:00Z"));
    expect(typeof first[0]?.values.consumption_power).toBe("number");
    expect(first[0]?.values.battery_soc).toEqual(expect.any(Number));
    const meter = ofKind(readings, "inverter.counters");
    expect(meter).toHaveLength(1);
    expect(meter[0]?.values.total_solar_energy).toEqual(expect.any(Number));
    // Page 1 names the last page; the counters reuse the live pipeline's fresh point.
    expect(points.mock.calls.map(([, date, options]) => [date, options?.firstPage])).toEqual([
      ["2025-06-18", 1],
      ["2025-06-18", 10],
    ]);

    // At 10:01 the 10:00 point has opened page 11, which page 10 names.
    readings.length = 0;
    points.mockClear();
    await h.advance(60_000);
    expect(points.mock.calls.map(([, , options]) => options?.firstPage)).toEqual([10, 11]);
    expect(ofKind(readings, "inverter.live").map((r) => r.measuredAt)).toEqual([Date.parse("2025-06-18T09:00:00Z")]);

    // Until 10:05 has passed there is no new point: one request a minute, nothing emitted.
    readings.length = 0;
    points.mockClear();
    await h.advance(4 * 60_000);
    expect(points.mock.calls.map(([, , options]) => options?.firstPage)).toEqual([11, 11, 11, 11]);
    expect(ofKind(readings, "inverter.live")).toEqual([]);
    // The counters' poll at 10:05 shared the live poll's request.
    expect(ofKind(readings, "inverter.counters")).toHaveLength(1);

    await h.advance(60_000);
    expect(ofKind(readings, "inverter.live").map((r) => r.measuredAt)).toEqual([Date.parse("2025-06-18T09:05:00Z")]);

    // The endpoint that answered 404 is not asked again.
    expect(live).toHaveBeenCalledTimes(1);
    expect(ofKind(readings, "availability")).toEqual([]);
  });
});
