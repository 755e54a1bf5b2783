import { describe, expect, it } from "vitest";
import type { Resource } from "../../src/sources/index.js";
import { Health } from "../../src/telemetry/health.js";
import type { DeviceState } from "../../src/telemetry/index.js";
import { StateChanges } from "../../src/telemetry/index.js";
import type { Outcome } from "../../src/telemetry/poll-loop.js";
import { type DeviceId, deviceIdOf } from "../../src/vocabulary/device-id.js";

const resource = (name: string, devices: string[]): Resource => ({
  name,
  devices: devices.map(deviceIdOf),
  poll: async () => ({}),
});
const live = resource("inverter.live x", ["x"]);
const events = resource("inverter.events x", ["x"]);
const ems = resource("ems e", ["e", "c1"]);

const downOf = (bySerial: Record<string, string>): Record<DeviceId, string> => {
  const down: Record<DeviceId, string> = {};
  for (const [serial, why] of Object.entries(bySerial)) down[deviceIdOf(serial)] = why;
  return down;
};
const ok = (r: Resource, down?: Record<string, string>): Outcome => ({
  resource: r,
  ok: true,
  result: down ? { down: downOf(down) } : {},
});
const failed = (r: Resource, failures: number): Outcome => ({
  resource: r,
  ok: false,
  error: new Error("boom"),
  failures,
});

describe("Health", () => {
  it("says available after the first success, and only changes after that", () => {
    const health = new Health(3);
    expect(health.record(ok(live), 1)).toEqual([
      { kind: "availability", device: "x", at: 1, available: true, reason: "polls succeed" },
    ]);
    expect(health.record(ok(events), 2)).toEqual([]);
    expect(health.record(ok(live), 3)).toEqual([]);
  });

  it("says unavailable after the threshold of failures in a row of any one resource, and recovers", () => {
    const health = new Health(3);
    health.record(ok(live), 0);
    expect(health.record(failed(events, 1), 1)).toEqual([]);
    expect(health.record(failed(events, 2), 2)).toEqual([]);
    expect(health.record(failed(events, 3), 3)).toEqual([
      expect.objectContaining({
        device: "x",
        available: false,
        reason: "inverter.events x failed 3 times in a row: boom",
      }),
    ]);
    expect(health.record(ok(live), 4)).toEqual([]);
    expect(health.record(ok(events), 5)).toEqual([expect.objectContaining({ device: "x", available: true })]);
  });

  it("follows what a resource says of each of its devices", () => {
    const health = new Health(3);
    expect(health.record(ok(ems, { c1: "EMS reports c1 OFFLINE" }), 0)).toEqual([
      expect.objectContaining({ device: "e", available: true }),
      expect.objectContaining({ device: "c1", available: false, reason: "EMS reports c1 OFFLINE" }),
    ]);
    expect(health.record(ok(ems), 1)).toEqual([expect.objectContaining({ device: "c1", available: true })]);
    // An EMS that cannot be read takes its children with it.
    health.record(failed(ems, 1), 2);
    health.record(failed(ems, 2), 3);
    expect(health.record(failed(ems, 3), 4).map((r) => r.kind === "availability" && [r.device, r.available])).toEqual([
      ["e", false],
      ["c1", false],
    ]);
  });

  it("says nothing of a device before anything is known", () => {
    const health = new Health(3);
    expect(health.record(failed(live, 1), 0)).toEqual([]);
  });
});

describe("StateChanges", () => {
  it("passes a reading only when its data differs from the last one of the same kind and device", () => {
    const filter = new StateChanges();
    const point = (at: number, power: number, uuid = "u"): DeviceState => ({
      kind: "smart.data",
      uuid,
      at,
      point: { power, measuredAt: Date.parse("2025-06-18T09:00:00Z") },
    });
    expect(filter.changed(point(1, 5))).toBe(true);
    expect(filter.changed(point(2, 5))).toBe(false);
    expect(filter.changed(point(3, 5, "v"))).toBe(true);
    expect(filter.changed(point(4, 6))).toBe(true);
    expect(filter.changed(point(5, 5))).toBe(true);
  });
});
