import { HOUR_MS, SLOT_MS } from "../../time/index.js";
import type { Rate } from "../tariffs/tariff.js";

/*
 * The planner, a pure function of rates, the time needed and a deadline (after evcc). Its
 * fallbacks, in order: a passed deadline plans nothing; nothing needed plans nothing; too little
 * time starts now and says the target cannot be met; no prices at all gives a plain window
 * just before the deadline; slots without a price are used only when priced ones run out.
 * Equal prices prefer later slots, so a flat tariff charges just before the deadline too.
 */

export interface Interval {
  readonly start: number;
  readonly end: number;
}

export interface PlannedSlot extends Interval {
  /** Undefined when no price was known for the slot. */
  readonly price: number | undefined;
  readonly estimated: boolean;
}

export type PlanFallback =
  | "none"
  | "deadline-passed"
  | "already-met"
  | "too-little-time"
  | "no-prices"
  | "unpriced-slots";

export interface WindowPlan {
  /** The chosen slots (partial ones trimmed), in time order. */
  readonly slots: readonly PlannedSlot[];
  /** The chosen slots merged where they touch. */
  readonly windows: readonly Interval[];
  /** True when the whole time needed fits before the deadline. */
  readonly met: boolean;
  readonly fallback: PlanFallback;
  /** What the planner did and why, in words. */
  readonly notes: readonly string[];
  /** Time-weighted over the priced part of the chosen slots. */
  readonly averagePrice: number | undefined;
}

export interface WindowInput {
  readonly now: number;
  readonly deadline: number;
  /** Half-hourly rates in any order; slots missing here have no price. */
  readonly rates: readonly Rate[];
  /** How long to run, in ms. */
  readonly durationMs: number;
  /** true: the best slots wherever they fall; false: one continuous window. */
  readonly split: boolean;
  /** cheapest for import (charging); dearest for export. */
  readonly prefer?: "cheapest" | "dearest";
}

interface GridSlot {
  readonly start: number;
  readonly end: number;
  readonly price: number | undefined;
  readonly estimated: boolean;
}

/** The slots from now to the deadline: the first and last may be partial half-hours. */
function grid(now: number, deadline: number, rates: readonly Rate[]): GridSlot[] {
  const byStart = new Map<number, Rate>();
  for (const rate of rates) byStart.set(rate.start, rate);
  const slots: GridSlot[] = [];
  for (let start = now; start < deadline; ) {
    const aligned = Math.floor(start / SLOT_MS) * SLOT_MS;
    const end = Math.min(aligned + SLOT_MS, deadline);
    const rate = byStart.get(aligned);
    slots.push({ start, end, price: rate?.price, estimated: rate?.estimated ?? false });
    start = end;
  }
  return slots;
}

const hours = (ms: number): string => `${(ms / HOUR_MS).toFixed(1)} h`;

export function planWindow(input: WindowInput): WindowPlan {
  const { now, deadline, durationMs } = input;
  const dearest = input.prefer === "dearest";
  if (deadline <= now) return empty(false, "deadline-passed", "the deadline has passed: nothing planned");
  if (durationMs <= 0) return empty(true, "already-met", "nothing needed: already at the target");
  const slots = grid(now, deadline, input.rates);
  const available = deadline - now;
  if (durationMs >= available) {
    const met = durationMs === available;
    const note = met
      ? "exactly enough time: running from now until the deadline"
      : `too little time: ${hours(durationMs)} needed but ${hours(available)} left; starting now, the target cannot be met`;
    return finish(slots, met, met ? "none" : "too-little-time", [note]);
  }
  if (slots.every((slot) => slot.price === undefined)) {
    const plain = trim(slots, deadline - durationMs, deadline);
    return finish(plain, true, "no-prices", [
      `no prices between now and the deadline: a plain ${hours(durationMs)} window just before it`,
    ]);
  }
  const chosen = input.split ? pickSplit(slots, durationMs, dearest) : pickContinuous(slots, durationMs, dearest);
  const unpriced = chosen.some((slot) => slot.price === undefined);
  return finish(
    chosen,
    true,
    unpriced ? "unpriced-slots" : "none",
    unpriced ? ["some chosen slots have no price: the priced ones before the deadline were not enough"] : [],
  );
}

function empty(met: boolean, fallback: PlanFallback, note: string): WindowPlan {
  return { slots: [], windows: [], met, fallback, notes: [note], averagePrice: undefined };
}

function finish(slots: readonly GridSlot[], met: boolean, fallback: PlanFallback, notes: string[]): WindowPlan {
  const sorted = [...slots].sort((a, b) => a.start - b.start);
  let priced = 0;
  let sum = 0;
  for (const slot of sorted) {
    if (slot.price === undefined) continue;
    priced += slot.end - slot.start;
    sum += slot.price * (slot.end - slot.start);
  }
  return {
    slots: sorted,
    windows: merge(sorted),
    met,
    fallback,
    notes,
    averagePrice: priced > 0 ? sum / priced : undefined,
  };
}

export function merge(slots: readonly Interval[]): Interval[] {
  const windows: Interval[] = [];
  for (const slot of slots) {
    const last = windows[windows.length - 1];
    if (last && last.end === slot.start) windows[windows.length - 1] = { start: last.start, end: slot.end };
    else windows.push({ start: slot.start, end: slot.end });
  }
  return windows;
}

/** The parts of the slots inside [from, to). */
function trim(slots: readonly GridSlot[], from: number, to: number): GridSlot[] {
  return slots
    .filter((slot) => slot.end > from && slot.start < to)
    .map((slot) => ({ ...slot, start: Math.max(slot.start, from), end: Math.min(slot.end, to) }));
}

/** Sort key: priced before unpriced, then the better price, then the later slot. */
function better(a: GridSlot, b: GridSlot, dearest: boolean): number {
  if (a.price === undefined || b.price === undefined) {
    if (a.price !== b.price) return a.price === undefined ? 1 : -1;
    return b.start - a.start;
  }
  const byPrice = dearest ? b.price - a.price : a.price - b.price;
  return byPrice !== 0 ? byPrice : b.start - a.start;
}

function pickSplit(slots: readonly GridSlot[], durationMs: number, dearest: boolean): GridSlot[] {
  const order = slots
    .map((_, index) => index)
    .sort((a, b) => better(slots[a] as GridSlot, slots[b] as GridSlot, dearest));
  const taken = new Set<number>();
  const chosen: GridSlot[] = [];
  let left = durationMs;
  for (const index of order) {
    if (left <= 0) break;
    const slot = slots[index] as GridSlot;
    const length = slot.end - slot.start;
    if (length <= left) {
      chosen.push(slot);
      taken.add(index);
      left -= length;
      continue;
    }
    // The last slot runs in part: at the end that touches a chosen neighbour, else its end.
    const atStart = !taken.has(index + 1) && taken.has(index - 1);
    chosen.push(atStart ? { ...slot, end: slot.start + left } : { ...slot, start: slot.end - left });
    left = 0;
  }
  return chosen;
}

/**
 * One window of exactly durationMs. The cost is linear between slot boundaries, so the best
 * window starts or ends on one: those are the only candidates. The cost counts unpriced time
 * first (less is better), then money; ties go to the later window.
 */
function pickContinuous(slots: readonly GridSlot[], durationMs: number, dearest: boolean): GridSlot[] {
  const first = slots[0] as GridSlot;
  const deadline = (slots[slots.length - 1] as GridSlot).end;
  // Prefix sums at each slot start: money (price x ms) and unpriced ms.
  const money = [0];
  const unpriced = [0];
  slots.forEach((slot, index) => {
    const length = slot.end - slot.start;
    money.push((money[index] as number) + ((slot.price ?? 0) * length) / HOUR_MS);
    unpriced.push((unpriced[index] as number) + (slot.price === undefined ? length : 0));
  });
  const indexAt = (at: number): number => {
    if (at < (slots[1]?.start ?? deadline)) return 0;
    return Math.min(slots.length - 1, 1 + Math.floor((at - (slots[1] as GridSlot).start) / SLOT_MS));
  };
  const upTo = (sums: readonly number[], at: number, perMs: (slot: GridSlot) => number): number => {
    const index = indexAt(at);
    const slot = slots[index] as GridSlot;
    return (sums[index] as number) + perMs(slot) * (Math.min(at, slot.end) - slot.start);
  };
  const candidates = new Set<number>();
  for (const slot of slots) {
    if (slot.start + durationMs <= deadline) candidates.add(slot.start);
    if (slot.end - durationMs >= first.start) candidates.add(slot.end - durationMs);
  }
  let best: { start: number; unpriced: number; money: number } | undefined;
  for (const start of candidates) {
    const end = start + durationMs;
    const blind =
      upTo(unpriced, end, (s) => (s.price === undefined ? 1 : 0)) -
      upTo(unpriced, start, (s) => (s.price === undefined ? 1 : 0));
    const cost =
      upTo(money, end, (s) => (s.price ?? 0) / HOUR_MS) - upTo(money, start, (s) => (s.price ?? 0) / HOUR_MS);
    const score = dearest ? -cost : cost;
    const bestScore = best ? (dearest ? -best.money : best.money) : 0;
    const wins =
      !best ||
      blind < best.unpriced - 1e-9 ||
      (Math.abs(blind - best.unpriced) <= 1e-9 &&
        (score < bestScore - 1e-9 || (Math.abs(score - bestScore) <= 1e-9 && start > best.start)));
    if (wins) best = { start, unpriced: blind, money: cost };
  }
  const start = best?.start ?? deadline - durationMs;
  return trim(slots, start, start + durationMs);
}
