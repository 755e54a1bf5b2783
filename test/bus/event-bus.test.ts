import { describe, expect, it } from "vitest";
import { EventBus, type HandlerFailure } from "../../src/bus/event-bus.js";
import { deviceIdOf } from "../../src/vocabulary/device-id.js";

const reading = (serial: string) =>
  ({ kind: "inverter.events", serial, at: 1, active: [], ended: undefined, latest: undefined }) as const;

describe("the daemon's event bus", () => {
  it("calls every handler in the order they subscribed, and one that throws does not stop the others", () => {
    const failures: Parameters<HandlerFailure>[0][] = [];
    const bus = new EventBus((failure) => failures.push(failure));
    const seen: string[] = [];
    bus.on("fetched", "first", (r) => void seen.push(`first ${"serial" in r ? r.serial : ""}`));
    bus.on("fetched", "broken", () => {
      throw new Error("boom");
    });
    bus.on("fetched", "last", (r) => void seen.push(`last ${"serial" in r ? r.serial : ""}`));
    bus.emit("fetched", reading("A"));
    expect(seen).toEqual(["first A", "last A"]);
    expect(failures).toMatchObject([{ event: "fetched", owner: "broken" }]);
    expect(failures[0]?.error).toEqual(new Error("boom"));
  });

  it("reports a handler's rejected promise instead of leaving it unhandled", async () => {
    const failures: string[] = [];
    const bus = new EventBus(({ owner }) => failures.push(owner));
    bus.on("fetched", "async", async () => {
      throw new Error("later");
    });
    bus.emit("fetched", reading("A"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toEqual(["async"]);
  });

  it("unsubscribes one handler, or every handler of a feature that stops", () => {
    const bus = new EventBus(() => undefined);
    const seen: string[] = [];
    const off = bus.on("fetched", "a", () => void seen.push("a"));
    bus.on("fetched", "b", () => void seen.push("b"));
    bus.on("availability", "b", () => void seen.push("b-availability"));
    off();
    bus.emit("fetched", reading("A"));
    expect(seen).toEqual(["b"]);
    bus.removeAll("b");
    bus.emit("fetched", reading("A"));
    bus.emit("availability", { kind: "availability", device: deviceIdOf("a"), at: 1, available: true, reason: "" });
    expect(seen).toEqual(["b"]);
    expect(bus.listeners("fetched")).toBe(0);
  });
});
