import { afterEach, describe, expect, it, vi } from "vitest";
import { ServerError } from "../../src/cloud/errors.js";
import { PageIterator } from "../../src/cloud/pagination.js";
import type { SmartDeviceDataPoint } from "../../src/cloud/schemas/smart-device.js";
import { smartDeviceEndpoints } from "../../src/cloud/sections/smart-devices.js";
import { CHARGER, type Harness, HOUSE, ofKind, SMART, startHarness } from "./harness.js";

const house = HOUSE.toLowerCase();

describe("availability", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it("an inverter set offline becomes unavailable, and available again when it is back", async () => {
    h = await startHarness();
    const { readings } = await h.start();
    readings.length = 0;

    await h.admin(`/devices/${HOUSE}`, { offline: true });
    await h.advance(60_000);
    const down = ofKind(readings, "availability");
    expect(down).toEqual([
      expect.objectContaining({ device: house, available: false, reason: expect.stringMatching(/Lost/) }),
    ]);
    expect(ofKind(readings, "inverter.live").at(-1)?.values.status).toBe("Lost");

    readings.length = 0;
    await h.advance(5 * 60_000);
    expect(ofKind(readings, "availability")).toEqual([]);

    await h.admin(`/devices/${HOUSE}`, { offline: false });
    await h.advance(60_000);
    expect(ofKind(readings, "availability")).toEqual([expect.objectContaining({ device: house, available: true })]);
    expect(ofKind(readings, "inverter.live").at(-1)?.values.status).toBe("Normal");
  });

  it("an EV charger set offline becomes unavailable, and available again when it is back", async () => {
    h = await startHarness();
    const { readings } = await h.start();
    readings.length = 0;

    await h.admin(`/devices/${CHARGER}`, { offline: true });
    await h.advance(30_000);
    expect(ofKind(readings, "availability")).toEqual([
      expect.objectContaining({ device: CHARGER, available: false, reason: expect.stringMatching(/offline/) }),
    ]);
    expect(ofKind(readings, "ev.status").at(-1)?.values.online).toBe("OFF");

    readings.length = 0;
    await h.admin(`/devices/${CHARGER}`, { offline: false });
    await h.advance(30_000);
    expect(ofKind(readings, "availability")).toEqual([expect.objectContaining({ device: CHARGER, available: true })]);
  });

  it("a 503 burst on one resource does not stop the others", async () => {
    h = await startHarness();
    const { readings } = await h.start();
    readings.length = 0;
    const before = h.requests.length;

    // At 30 s only the charger's status is due: the burst covers all of that poll's attempts.
    await h.admin("/errors", { status: 503, count: 4 });
    await h.advance(30_000);
    expect(h.requests.slice(before).map((r) => `${r.endpoint} ${r.status}`)).toEqual(
      Array.from({ length: 4 }, () => "Get EV Charger 503"),
    );

    await h.advance(30_000);
    expect(
      h.requests
        .slice(before + 4)
        .map((r) => `${r.endpoint} ${r.status}`)
        .sort(),
    ).toEqual(["Get EV Charger 200", "Get Latest EMS Data 200", "Get Latest System Data 200"]);
    expect(ofKind(readings, "inverter.live")).toHaveLength(1);
    expect(ofKind(readings, "availability")).toEqual([]);
  });

  it("a resource whose polls keep failing makes its device unavailable, backs off, and recovers", async () => {
    h = await startHarness();
    const failing = vi.spyOn(h.client.smartDevices, "data").mockImplementation(
      () =>
        new PageIterator<SmartDeviceDataPoint>(async () => {
          throw new ServerError(smartDeviceEndpoints.data, 503);
        }),
    );
    const { readings } = await h.start();
    expect(ofKind(readings, "availability").map((r) => r.device)).not.toContain(SMART);

    // Failures at 0, 5 and 10 minutes (the period is already the 5-minute cap): the third one counts.
    await h.advance(9 * 60_000);
    expect(failing).toHaveBeenCalledTimes(2);
    expect(ofKind(readings, "availability").map((r) => r.device)).not.toContain(SMART);
    await h.advance(60_000);
    expect(failing).toHaveBeenCalledTimes(3);
    expect(ofKind(readings, "availability").filter((r) => r.device === SMART)).toEqual([
      expect.objectContaining({ available: false, reason: expect.stringMatching(/smart\.data .* failed 3 times/) }),
    ]);
    // Everything else went on polling meanwhile.
    expect(ofKind(readings, "inverter.live")).toHaveLength(11);
    expect(ofKind(readings, "availability").filter((r) => !r.available)).toHaveLength(1);

    failing.mockRestore();
    await h.advance(5 * 60_000);
    expect(
      ofKind(readings, "availability")
        .filter((r) => r.device === SMART)
        .at(-1),
    ).toEqual(expect.objectContaining({ available: true }));
    expect(ofKind(readings, "smart.data")).toHaveLength(1);
  });
});

describe("an EMS's child inverter", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it("is unavailable while the EMS reports it offline, and its fault events are read on the change", async () => {
    h = await startHarness();
    const events = vi.spyOn(h.client.inverterData, "events");
    const { readings } = await h.start();
    readings.length = 0;
    events.mockClear();

    await h.admin("/devices/SE2024G101", { offline: true });
    await h.advance(60_000);
    expect(ofKind(readings, "availability")).toEqual([
      expect.objectContaining({ device: "se2024g101", available: false, reason: expect.stringMatching(/OFFLINE/) }),
    ]);
    expect(events.mock.calls.map(([serial]) => serial)).toEqual(["SE2024G101"]);

    // No change, no events request.
    events.mockClear();
    await h.advance(60_000);
    expect(events.mock.calls.map(([serial]) => serial)).toEqual([]);

    readings.length = 0;
    await h.admin("/devices/SE2024G101", { offline: false });
    await h.advance(60_000);
    expect(ofKind(readings, "availability")).toEqual([
      expect.objectContaining({ device: "se2024g101", available: true }),
    ]);
    expect(events.mock.calls.map(([serial]) => serial)).toEqual(["SE2024G101"]);
  });
});
