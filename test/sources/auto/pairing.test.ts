import { describe, expect, it } from "vitest";
import { composeResources } from "../../../src/sources/auto/index.js";
import { PathChoice, type Resource } from "../../../src/sources/index.js";
import type { ResourceKind } from "../../../src/sources/resource.js";
import { VirtualClock } from "../../../src/time/virtual-clock.js";

/*
 * Issue 36: `source: auto` pairs a device's two paths by what each resource fetches and for which
 * serial (`Resource.of`), never by parsing display names.
 */

/** A resource that says which path answered, under any name. */
function resource(name: string, path: "cloud" | "local", of?: { kind: ResourceKind; serial: string }): Resource {
  return {
    name,
    devices: [],
    ...(of ? { of } : {}),
    periodMs: 30_000,
    poll: async () => ({ fetched: { kind: "inverter.live", serial: path, at: 0, measuredAt: 0, values: {} } }),
  };
}

const compose = (cloud: Resource[], local: Resource[]) => {
  const clock = new VirtualClock(0);
  const choice = new PathChoice({ clock, failbackMs: 60_000 });
  return { choice, resources: composeResources({ choice, lan: { liveMs: 10_000, clock }, cloud, local }) };
};

describe("source: auto pairs twins by what they fetch and whose, not by name", () => {
  it("pairs live data whose names share nothing, serials in any case, and reads it over the LAN", async () => {
    const { choice, resources } = compose(
      [resource("cloud system data of the hybrid", "cloud", { kind: "inverter.live", serial: "SD1" })],
      [resource("dongle at 127.0.0.9", "local", { kind: "inverter.live", serial: "sd1" })],
    );
    const twin = resources.find((one) => one.name.endsWith("(LAN or cloud)"));
    expect(twin?.name).toBe("cloud system data of the hybrid (LAN or cloud)");
    expect(choice.pathOf("SD1")).toBe("local");
    const answer = await twin?.poll(new AbortController().signal);
    expect(answer?.fetched).toMatchObject({ serial: "local" });
    // The twin, and the dongle's probe for while the device is on the cloud: never both paths' own.
    expect(resources.map((one) => one.name)).toEqual([
      "cloud system data of the hybrid (LAN or cloud)",
      "dongle probe of dongle at 127.0.0.9",
    ]);
  });

  it("leaves apart resources named alike whose kind or serial differ, or that say neither", () => {
    const { resources } = compose(
      [
        resource("inverter.live SD1", "cloud", { kind: "inverter.live", serial: "SD1" }),
        resource("inverter.counters SD2", "cloud", { kind: "inverter.counters", serial: "SD2" }),
      ],
      [
        resource("inverter.live SD1 (LAN 127.0.0.9:8899)", "local", { kind: "inverter.live", serial: "SD9" }),
        resource("inverter.counters SD2 (LAN 127.0.0.8:8899)", "local"),
      ],
    );
    expect(resources.map((one) => one.name).sort()).toEqual(
      [
        "inverter.live SD1",
        "inverter.counters SD2",
        "inverter.live SD1 (LAN 127.0.0.9:8899)",
        "inverter.counters SD2 (LAN 127.0.0.8:8899)",
      ].sort(),
    );
  });
});
