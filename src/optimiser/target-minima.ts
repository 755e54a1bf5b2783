import type { SlotResult } from "./energy.js";

/*
 * The backward pass's charge and export to a grid target, for every grid point of a slot at once.
 * From point i a charge of k grid steps costs cost[k] and lands on point i + k, so its best is the
 * least cost[k] + next[i + k] over the k within reach of i (an export: next[i - k]). Trying every
 * k was some 30 sums per point and most of a plan's time. Within a run of k where the slot's grid
 * flow keeps its kind (import, export, or export cut at the limit) cost[k] rises by the same
 * amount per step, so the best k of a run is where next[j] + slope * j is least over a window of
 * j that only moves up as i does: a sliding minimum, each j entering and leaving the window once.
 * The chosen k's total is then summed exactly as the loop summed it, cost[k] + next[i + k].
 */

/** A run of steps k from `from` to `to` (inclusive) over which a step's cost grows by `slope`. */
export interface StepRun {
  readonly from: number;
  readonly to: number;
  readonly slope: number;
}

/**
 * What makes a step's cost linear in k: the grid flow's kind (import; export; export at the
 * limit) and whether the battery's power limit is reached. A step on the boundary of two kinds
 * (no flow) lies on both lines, so either run may hold it.
 */
export function kindOf(result: SlotResult, exportCap: number, maxPower: number): number {
  const flow = result.importKwh > 0 ? 0 : result.exportKwh >= exportCap ? 2 : 1;
  const limited = Math.max(result.chargedKwh, result.dischargedKwh) >= maxPower ? 3 : 0;
  return flow + limited;
}

/** Gathers the runs of steps of one kind, each with its cost's slope per step. */
export class RunsOfKind {
  private from = 0;
  private kind = -1;
  private last = 0;

  constructor(
    private readonly runs: StepRun[],
    private readonly cost: Float64Array,
  ) {
    runs.length = 0;
  }

  add(k: number, kind: number): void {
    if (kind !== this.kind) {
      this.close();
      this.from = k;
      this.kind = kind;
    }
    this.last = k;
  }

  close(): void {
    if (this.kind < 0) return;
    const { from, last: to, cost } = this;
    const slope = to > from ? ((cost[to] as number) - (cost[from] as number)) / (to - from) : 0;
    this.runs.push({ from, to, slope });
    this.kind = -1;
  }
}

/** Scratch for the window: the j in it, in order, with their keys rising. */
export interface WindowScratch {
  readonly queue: Int32Array;
  readonly keys: Float64Array;
}

export function windowScratch(points: number): WindowScratch {
  return { queue: new Int32Array(points), keys: new Float64Array(points) };
}

/**
 * Per point i, into out[i], the least cost[k] + next[offset + j] over k in 1..end[i]-1, where
 * j = i + k for a charge (`way` 1) and i - k for an export (-1); none when end[i] is 0 (out[i]
 * stays +Infinity). Among equal totals the smallest k, as a loop over k keeping the first strictly
 * lower total would. The window of j for i is [lo, hi]; j enters it in rising order, and its key is
 * next[j] + way * slope * j.
 */
export function targetMinima(
  way: 1 | -1,
  cost: Float64Array,
  runs: readonly StepRun[],
  next: Float64Array,
  offset: number,
  end: Int32Array,
  points: number,
  scratch: WindowScratch,
  out: Float64Array,
): void {
  out.fill(Number.POSITIVE_INFINITY, 0, points);
  const { queue, keys } = scratch;
  for (const run of runs) {
    if (run.from === run.to) {
      oneStep(way, run.from, cost, next, offset, end, points, out);
      continue;
    }
    let head = 0;
    let tail = 0;
    let pushed = -1;
    const slope = way * run.slope;
    for (let i = 0; i < points; i++) {
      const reach = end[i] as number;
      if (reach === 0) continue;
      const near = i + way * run.from;
      const far = i + way * Math.min(run.to, reach - 1);
      const lo = way > 0 ? near : far;
      const hi = way > 0 ? far : near;
      for (let j = Math.max(pushed + 1, lo); j <= hi; j++) {
        const key = (next[offset + j] as number) + slope * j;
        // Of equal keys the one nearer i (the smaller k) stays first: upwards the earlier j,
        // downwards the later.
        while (tail > head && ((keys[tail - 1] as number) > key || (way < 0 && keys[tail - 1] === key))) tail--;
        queue[tail] = j;
        keys[tail] = key;
        tail++;
        pushed = j;
      }
      while (tail > head && (queue[head] as number) < lo) head++;
      if (tail === head || (queue[head] as number) > hi) continue;
      const j = queue[head] as number;
      const total = (cost[way * (j - i)] as number) + (next[offset + j] as number);
      if (total < (out[i] as number)) out[i] = total;
    }
  }
}

/**
 * A run of one step k needs no window: from each point i that reaches it, cost[k] + next[i ± k].
 * Some 40% of the runs are such (the step where the power limit is reached, say).
 */
function oneStep(
  way: 1 | -1,
  k: number,
  cost: Float64Array,
  next: Float64Array,
  offset: number,
  end: Int32Array,
  points: number,
  out: Float64Array,
): void {
  const paid = cost[k] as number;
  for (let i = 0; i < points; i++) {
    if ((end[i] as number) <= k) continue;
    const total = paid + (next[offset + i + way * k] as number);
    if (total < (out[i] as number)) out[i] = total;
  }
}
