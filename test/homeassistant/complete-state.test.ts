import { describe, expect, it } from "vitest";
import { completeState } from "../../src/homeassistant/complete-state.js";
import type { EntityDef } from "../../src/homeassistant/entities/index.js";

const entity = (key: string, component: EntityDef["component"] = "sensor"): EntityDef => ({
  key,
  component,
  name: key,
});

describe("completeState", () => {
  it("has every key an entity reads, null when unknown, and keeps what is known", () => {
    const state = completeState([entity("a"), entity("b"), entity("c", "switch")], { b: 2, extra: "x" });
    expect(state).toEqual({ a: null, b: 2, c: null, extra: "x" });
    expect(Object.keys(state)).toEqual(["a", "b", "c", "extra"]);
  });

  it("adds no key for a button, which reads no state", () => {
    expect(completeState([entity("restart", "button")], {})).toEqual({});
  });
});
