import { type ExactInput, type ExactOptions, type ExactSlot, exactOptimum, relaxedValues } from "./exact.js";

/*
 * The year's exact optimum in blocks, with a proof of how close it is. One mixed-integer program
 * over 17,520 half-hours is too slow for HiGHS in WebAssembly (2,000 half-hours with 58 binary
 * slots took 25 s, the year had not finished in 20 minutes), so:
 * - upper bound: the blocks in order, each starting where the last ended, solved with the next
 *   block too and the energy left after it valued at the relaxation's value of a stored kWh there,
 *   and kept to its own end; the chain is a schedule the meter can run, so it costs at least the
 *   optimum;
 * - lower bound (Lagrangian relaxation of the storage link between blocks): each block may start
 *   with any stored energy, paying the same value for it, and is paid that value for what it
 *   leaves; the sum of these blocks' optima is at most the optimum, for any values.
 * The optimum lies between the two; when they meet, the chain is the optimum. The lower bound's
 * programs are one more per block; the backtest, which keeps only the chain, leaves them out.
 */

export interface BlockResult {
  /** The chained schedule's cost: the optimum within `gap`. */
  readonly cost: number;
  /** The Lagrangian bound: no schedule costs less (undefined: not asked for). */
  readonly lowerBound: number | undefined;
  readonly gap: number | undefined;
  /** The linear relaxation of the whole year (a weaker lower bound). */
  readonly relaxedCost: number;
  readonly slots: readonly ExactSlot[];
  readonly blocks: number;
  /** Half-hours that carried binaries, summed over the chained solves (each week is solved twice). */
  readonly binarySlots: number;
  readonly solveMs: number;
}

export async function exactByBlocks(
  input: ExactInput & { readonly initialSocKwh: number },
  options: ExactOptions,
  blockSlots: number,
  { lowerBound: withBound = true }: { readonly lowerBound?: boolean } = {},
): Promise<BlockResult> {
  const started = performance.now();
  const relaxed = await relaxedValues(input);
  const total = input.load.length;
  const value = (t: number) => (t >= total ? 0 : (relaxed.valuePerKwh[t] ?? 0));
  const block = (from: number, to: number, initialSocKwh: number | "free"): ExactInput => ({
    ...input,
    importPrices: input.importPrices.slice(from, to),
    exportPrices: input.exportPrices.slice(from, to),
    load: input.load.slice(from, to),
    solar: input.solar.slice(from, to),
    initialSocKwh,
    startValue: value(from),
    endValue: value(to),
  });
  const slots: ExactSlot[] = [];
  let soc = input.initialSocKwh;
  let cost = 0;
  let lowerBound = 0;
  let binarySlots = 0;
  let blocks = 0;
  for (let from = 0; from < total; from += blockSlots) {
    const to = Math.min(total, from + blockSlots);
    // The chain looks one block further than it keeps, so that where the value of a stored kWh
    // leaves it indifferent about the energy it hands on, the next block's needs decide.
    const chained = await exactOptimum(block(from, Math.min(total, to + blockSlots), soc), options);
    const kept = chained.slots.slice(0, to - from);
    slots.push(...kept);
    cost += kept.reduce(
      (sum, slot, index) =>
        sum +
        slot.importKwh * (input.importPrices[from + index] as number) -
        slot.exportKwh * (input.exportPrices[from + index] as number),
      0,
    );
    soc = kept[kept.length - 1]?.socKwh ?? soc;
    binarySlots += chained.binarySlots;
    if (withBound)
      lowerBound += (await exactOptimum(block(from, to, from === 0 ? input.initialSocKwh : "free"), options)).objective;
    blocks++;
    options.onBlock?.(to);
  }
  return {
    cost,
    lowerBound: withBound ? lowerBound : undefined,
    gap: withBound ? cost - lowerBound : undefined,
    relaxedCost: relaxed.cost,
    slots,
    blocks,
    binarySlots,
    solveMs: performance.now() - started,
  };
}
