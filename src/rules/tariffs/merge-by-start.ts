/*
 * Two lists of half-hours (rates, stored prices) joined by their start: the rules engine does it
 * for its price history at every re-plan, 35,000 times over a backtest's year. Both lists come
 * in time order, so a walk down the two replaces the map and the sort it took; a list out of
 * order is sorted first (a stable sort: of two entries at one start the later counts, as a map
 * set in turn would keep it).
 */

interface Started {
  readonly start: number;
}

/**
 * For each start either list holds, in rising order, what `take` makes of the entries there (the
 * later of a list's own repeats); a start where it answers undefined is left out.
 */
export function mergeByStart<A extends Started, B extends Started, R>(
  first: readonly A[],
  second: readonly B[],
  take: (a: A | undefined, b: B | undefined) => R | undefined,
): R[] {
  const a = inOrder(first);
  const b = inOrder(second);
  const out: R[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const one = a[i];
    const other = b[j];
    // The last of a run of equal starts within one list.
    while (one && (a[i + 1]?.start ?? Number.NaN) === one.start) i++;
    while (other && (b[j + 1]?.start ?? Number.NaN) === other.start) j++;
    const left = a[i];
    const right = b[j];
    let taken: R | undefined;
    if (right === undefined || (left !== undefined && left.start < right.start)) {
      taken = take(left, undefined);
      i++;
    } else if (left === undefined || right.start < left.start) {
      taken = take(undefined, right);
      j++;
    } else {
      taken = take(left, right);
      i++;
      j++;
    }
    if (taken !== undefined) out.push(taken);
  }
  return out;
}

function inOrder<T extends Started>(list: readonly T[]): readonly T[] {
  for (let index = 1; index < list.length; index++)
    if ((list[index] as T).start < (list[index - 1] as T).start) return [...list].sort((x, y) => x.start - y.start);
  return list;
}
