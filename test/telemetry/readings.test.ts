import { afterEach, describe, expect, it, vi } from "vitest";
import { CHARGER, EMS, type Harness, HOUSE, ofKind, SMART, startHarness } from "./harness.js";

describe("telemetry readings on the demo", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it("emits a reading of every kind at start, and every device available", async () => {
    h = await startHarness();
    const { readings } = await h.start();

    expect(ofKind(readings, "inverter.live").map((r) => r.serial)).toEqual([HOUSE]);
    expect(ofKind(readings, "inverter.counters").map((r) => r.serial)).toEqual([HOUSE]);
    expect(
      ofKind(readings, "inverter.events")
        .map((r) => r.serial)
        .sort(),
    ).toEqual([HOUSE, "SE2024G101", "SE2024G102"]);
    expect(ofKind(readings, "ems").map((r) => r.serial)).toEqual([EMS]);
    expect(ofKind(readings, "ev.status").map((r) => r.uuid)).toEqual([CHARGER]);
    expect(ofKind(readings, "ev.meter").map((r) => r.uuid)).toEqual([CHARGER]);
    expect(ofKind(readings, "ev.session").map((r) => r.uuid)).toEqual([CHARGER]);
    expect(ofKind(readings, "smart.data").map((r) => r.uuid)).toEqual([SMART]);
    expect(
      ofKind(readings, "availability")
        .filter((r) => r.available)
        .map((r) => r.device)
        .sort(),
    ).toEqual([CHARGER, EMS.toLowerCase(), SMART, HOUSE.toLowerCase(), "se2024g101", "se2024g102"].sort());

    const live = ofKind(readings, "inverter.live")[0];
    expect(live?.at).toBe(h.now());
    expect(live?.values.status).toBe("Normal");
    expect(typeof live?.values.consumption_power).toBe("number");
    const meter = ofKind(readings, "ev.meter")[0];
    expect(Object.keys(meter?.values ?? {}).sort()).toEqual(["current", "energy", "power", "temperature", "voltage"]);
    const ems = ofKind(readings, "ems")[0];
    expect([ems?.values.inverter_1_status, ems?.values.inverter_2_status]).toEqual(["ONLINE", "ONLINE"]);
  });

  it("does not poll the EMS's children for live data or counters", async () => {
    h = await startHarness();
    const live = vi.spyOn(h.client.inverterData, "systemDataLatest");
    const points = vi.spyOn(h.client.inverterData, "dataPoints");
    await h.start();
    await h.advance(10 * 60_000);
    expect(new Set(live.mock.calls.map(([serial]) => serial))).toEqual(new Set([HOUSE]));
    expect(new Set(points.mock.calls.map(([serial]) => serial))).toEqual(new Set([HOUSE]));
    expect(live).toHaveBeenCalledTimes(11);
  });

  it("does not emit unchanged data again", async () => {
    h = await startHarness();
    const { telemetry, readings } = await h.start();
    const before = h.requests.length;
    readings.length = 0;

    // The dishwasher's newest point is half-hourly: asking again at once finds the same one.
    telemetry.refresh(SMART);
    await h.idle();
    expect(h.requests.slice(before).map((r) => r.endpoint)).toEqual(["Get Smart Device Data"]);
    expect(ofKind(readings, "smart.data")).toEqual([]);

    // The idle charger's status is polled every 30 s but does not change.
    await h.advance(30_000);
    expect(h.requests.slice(before).filter((r) => r.endpoint === "Get EV Charger")).toHaveLength(1);
    expect(ofKind(readings, "ev.status")).toEqual([]);
  });

  it("refresh(deviceId) polls that device's resources at once", async () => {
    h = await startHarness();
    const { telemetry } = await h.start();
    const before = h.requests.length;
    telemetry.refresh(HOUSE);
    await h.idle();
    expect(
      h.requests
        .slice(before)
        .map((r) => r.endpoint)
        .sort(),
    ).toEqual(["Get Inverter Data Points", "Get Inverter Events", "Get Latest System Data"]);

    const next = h.requests.length;
    telemetry.refresh("se2024g101");
    await h.idle();
    expect(
      h.requests
        .slice(next)
        .map((r) => r.endpoint)
        .sort(),
    ).toEqual(["Get Inverter Events", "Get Latest EMS Data"]);
  });

  it("sends telemetry requests with the live priority", async () => {
    h = await startHarness();
    const priorities = new Set<string>();
    const acquire = h.client.http.budget.acquire.bind(h.client.http.budget);
    h.client.http.budget.acquire = (priority, signal) => {
      priorities.add(priority);
      return acquire(priority, signal);
    };
    await h.start();
    await h.advance(5 * 60_000);
    expect([...priorities]).toEqual(["live"]);
  });
});
