import { describe, expect, it } from "vitest";
import { mergeByStart } from "../../../src/rules/tariffs/merge-by-start.js";
import { sequence } from "../../../src/simulator/random.js";

/*
 * The price history joins the tariff's rates with the store's published prices by their start at
 * every re-plan. The walk down both lists must give what a map set in turn and sorted gives.
 */

interface Entry {
  readonly start: number;
  readonly tag: string;
}

/** The later of each list's own repeats, then the map's join, sorted by start. */
function byMap(first: readonly Entry[], second: readonly Entry[], take: (a?: Entry, b?: Entry) => string | undefined) {
  const a = new Map(first.map((entry) => [entry.start, entry]));
  const b = new Map(second.map((entry) => [entry.start, entry]));
  const starts = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => x - y);
  return starts.map((start) => take(a.get(start), b.get(start))).filter((value) => value !== undefined);
}

function list(r: () => number, name: string, ordered: boolean): Entry[] {
  const entries: Entry[] = [];
  let start = Math.floor(r() * 5);
  for (let n = Math.floor(r() * 30); n > 0; n--) {
    entries.push({ start, tag: `${name}${entries.length}` });
    start += Math.floor(r() * 3); // 0: a repeat
  }
  return ordered ? entries : entries.sort(() => r() - 0.5);
}

describe("mergeByStart", () => {
  it("joins two lists by start as a map would, in order, repeats and all", () => {
    const r = sequence(40);
    const take = (a?: Entry, b?: Entry) =>
      a && b ? `${a.tag}+${b.tag}` : a && a.start % 4 !== 0 ? a.tag : b && b.start % 5 !== 0 ? b.tag : undefined;
    for (let n = 0; n < 500; n++) {
      const first = list(r, "a", r() < 0.7);
      const second = list(r, "b", r() < 0.7);
      expect(mergeByStart(first, second, take)).toEqual(byMap(first, second, take));
    }
  });

  it("keeps the tariff's published price over the store's and fills the rest from it", () => {
    const held = [
      { start: 0, estimated: false, price: 1 },
      { start: 30, estimated: true, price: 2 },
    ];
    const stored = [
      { start: 0, price: 9 },
      { start: 30, price: 8 },
      { start: 60, price: 7 },
    ];
    const merged = mergeByStart(held, stored, (rate, row) =>
      row === undefined || rate?.estimated === false ? rate?.price : row.price,
    );
    expect(merged).toEqual([1, 8, 7]);
  });
});
