import { describe, expect, it } from "vitest";
import { compareShape, nullsAndEmpties } from "./compare.js";

const paths = (evidence: unknown, actual: unknown, options = {}) =>
  compareShape(evidence, actual, options).differences.map((d) => `${d.problem} ${d.path}`);

describe("the shape comparison of the real-shape test", () => {
  it("finds a missing key, an extra key and another JSON type, at any depth", () => {
    const evidence = { data: { a: 1, b: { c: "x" } } };
    expect(paths(evidence, { data: { a: 2, b: { c: "y" } } })).toEqual([]);
    expect(paths(evidence, { data: { b: { c: "y" } } })).toEqual(["missing data.a"]);
    expect(paths(evidence, { data: { a: 1, b: { c: "y", d: 1 } } })).toEqual(["extra data.b.d"]);
    expect(paths(evidence, { data: { a: "1", b: { c: 3 } } })).toEqual(["type data.a", "type data.b.c"]);
  });

  it("reads null in the evidence as 'may be null', and refuses null elsewhere unless another body shows it", () => {
    expect(paths({ v: null }, { v: { any: 1 } })).toEqual([]);
    expect(paths({ v: 1 }, { v: null })).toEqual(["type v"]);
    expect(paths({ v: 1 }, { v: null }, { alsoSeen: nullsAndEmpties([{ v: null }]) })).toEqual([]);
  });

  it("takes anything for the evidence's [], and [] for an object only where the evidence uses []", () => {
    expect(paths({ v: [] }, { v: { a: 1 } })).toEqual([]);
    expect(paths({ v: [] }, { v: [1, 2] })).toEqual([]);
    expect(paths({ v: [] }, { v: 1 })).toEqual(["type v"]);
    expect(paths({ v: { a: 1 } }, { v: [] })).toEqual(["type v"]);
    expect(paths({ v: { a: 1 } }, { v: [] }, { alsoSeen: nullsAndEmpties([{ v: [] }]) })).toEqual([]);
  });

  it("matches each element with one of the evidence's element shapes, and with cover needs each of those", () => {
    const evidence = [{ a: 1 }, { a: 1, b: [] }];
    expect(paths(evidence, [{ a: 5 }, { a: 5, b: [] }])).toEqual([]);
    expect(paths(evidence, [{ a: 5, c: true }])).toEqual(["extra [].c"]);
    expect(paths(evidence, [{ a: 5 }], { cover: true })).toEqual(["missing []"]);
    expect(paths(evidence, [{ a: 5 }, { a: 6, b: [] }], { cover: true })).toEqual([]);
  });

  it("excuses what the allow-list names, and reports an allowance that excused nothing", () => {
    const allowed = [
      { path: "x", problem: "extra" as const, reason: "kept" },
      { path: "y", problem: "missing" as const, reason: "stale" },
    ];
    expect(compareShape({}, { x: 1 }, { allowed })).toEqual({ differences: [], unused: [allowed[1]] });
  });
});
