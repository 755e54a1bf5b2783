import type { Rate, Tariff, TariffStatus } from "../../rules/tariffs/index.js";
import type { SlotClock } from "../slot-clocks.js";

const SLOT_MS = 30 * 60_000;

/**
 * One side of a backtest's prices as a tariff the rules engine reads: each half-hour's price as
 * published, known from the moment the day-ahead prices come out (slotClocks: 16:00 local for the
 * next day), never before. A refresh at a slot's start learns what is published by then.
 */
export class ReplayTariff implements Tariff {
  readonly type = "agile" as const;
  private knownUntil = 0;
  /** For each slot, the first later slot at whose start more prices are known. */
  private readonly nextPublication: Int32Array;
  /** Each slot's rate, made once: the engine asks for two weeks of them every half-hour. */
  private readonly all: readonly Rate[];

  constructor(
    private readonly starts: readonly number[],
    private readonly prices: readonly number[],
    private readonly clocks: readonly SlotClock[],
  ) {
    this.nextPublication = new Int32Array(starts.length).fill(starts.length);
    for (let t = starts.length - 2; t >= 0; t--) {
      const later = (clocks[t + 1] as SlotClock).knownUntil > (clocks[t] as SlotClock).knownUntil;
      this.nextPublication[t] = later ? t + 1 : (this.nextPublication[t + 1] as number);
    }
    this.all = starts.map((start, t) => ({
      start,
      end: start + SLOT_MS,
      price: prices[t] as number,
      estimated: false,
    }));
  }

  priceAt(at: number): number | undefined {
    const t = this.slotOf(at);
    return t !== undefined && t < this.knownUntil ? this.prices[t] : undefined;
  }

  rates(from: number, to: number): Rate[] {
    const first = Math.max(0, Math.floor((from - this.origin) / SLOT_MS));
    const last = Math.min(this.knownUntil, Math.ceil((to - this.origin) / SLOT_MS));
    return this.all.slice(first, Math.max(first, last));
  }

  async refresh(now: number): Promise<void> {
    const t = this.slotOf(now);
    if (t !== undefined) this.knownUntil = Math.max(this.knownUntil, (this.clocks[t] as SlotClock).knownUntil);
  }

  nextRefresh(now: number): number {
    const t = this.slotOf(now);
    if (t === undefined) return now < this.origin ? this.origin : Number.POSITIVE_INFINITY;
    const next = this.nextPublication[t] as number;
    return next < this.starts.length ? (this.starts[next] as number) : Number.POSITIVE_INFINITY;
  }

  status(): TariffStatus {
    return { message: undefined };
  }

  private get origin(): number {
    return this.starts[0] ?? 0;
  }

  private slotOf(at: number): number | undefined {
    const t = Math.floor((at - this.origin) / SLOT_MS);
    return t >= 0 && t < this.starts.length ? t : undefined;
  }
}
