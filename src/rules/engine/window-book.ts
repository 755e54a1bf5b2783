import type { Interval } from "../planners/planner.js";
import type { PlannedWindow } from "../planners/rule-windows.js";
import { type Claim, type ClaimAnswer, Claims } from "./claims.js";

/** A window open now: planned, run now, or resumed after a restart. */
export interface OpenWindow extends Interval {
  /** The planning period of a planned window; undefined for the others. */
  readonly period: string | undefined;
  /** The store's promise to put back what the window changed, once made. */
  obligation: number | undefined;
  /** The controls the rule claimed in this window. */
  readonly controls: Set<string>;
  /** The planned window as last acted on (re-planning may change it); undefined for the others. */
  planned: PlannedWindow | undefined;
}

/**
 * The rules' windows: those planned, those open, and which rule holds which control (the higher
 * priority wins a control two rules want). It only keeps the book; the engine decides what to do.
 */
export class WindowBook {
  private readonly planned = new Map<string, PlannedWindow[]>();
  private readonly open = new Map<string, OpenWindow>();
  /** Periods whose windows have begun: replanning leaves them as they are. */
  private readonly begun = new Set<string>();
  /** Windows opened already (rule, start), so a replan does not open one twice. */
  private readonly opened = new Set<string>();
  private readonly claims = new Claims();

  /** A rule's new plan; the windows of periods that have begun stay as they were. */
  replan(rule: string, windows: readonly PlannedWindow[], now: number): void {
    const kept = (this.planned.get(rule) ?? []).filter((window) => this.begun.has(`${rule}:${window.period}`));
    const fresh = windows.filter((window) => !this.begun.has(`${rule}:${window.period}`));
    this.planned.set(
      rule,
      [...kept, ...fresh].filter((window) => window.end > now).sort((a, b) => a.start - b.start),
    );
  }

  /** The rule's planned window that has not ended: the one under way or the next. */
  nextPlanned(rule: string, now: number): PlannedWindow | undefined {
    return this.planned.get(rule)?.find((window) => window.end > now);
  }

  /** The rule's planned window that should be open now and was not opened yet. */
  dueToOpen(rule: string, now: number): PlannedWindow | undefined {
    return this.planned
      .get(rule)
      ?.find((window) => window.start <= now && window.end > now && !this.opened.has(`${rule}@${window.start}`));
  }

  /** The next time the book needs the engine: an open window's end, or the start of one to open. */
  nextDue(now: number, enabled: (rule: string) => boolean): number {
    const times = [...this.open.values()].map((window) => window.end);
    for (const [rule, windows] of this.planned) {
      if (this.open.has(rule) || !enabled(rule)) continue;
      const next = windows.find((window) => window.end > now && !this.opened.has(`${rule}@${window.start}`));
      if (next) times.push(next.start);
    }
    return Math.min(...times);
  }

  /** The planned windows meant for cheap import that have not ended, in time order. */
  cheapWindows(now: number, enabled: (rule: string) => boolean): PlannedWindow[] {
    return [...this.planned.values()]
      .flat()
      .filter((window) => window.cheapImport && window.end > now && enabled(window.rule))
      .sort((a, b) => a.start - b.start);
  }

  /** Opens a planned window; its period is kept from now on. */
  openPlanned(rule: string, window: PlannedWindow): OpenWindow {
    this.opened.add(`${rule}@${window.start}`);
    this.begun.add(`${rule}:${window.period}`);
    const open = this.openAt(rule, window, window.period);
    open.planned = window;
    return open;
  }

  /**
   * The rule's open planned window as re-planned (same period, perhaps another end or target):
   * it replaces the planned one and the open window ends at its end.
   */
  reshape(rule: string, window: PlannedWindow): void {
    const open = this.open.get(rule);
    if (!open || open.period !== window.period) return;
    this.open.set(rule, { ...open, end: window.end, planned: window });
    this.planned.set(
      rule,
      (this.planned.get(rule) ?? []).map((found) => (found.period === window.period ? window : found)),
    );
  }

  /** Forgets a planned window of a period that has begun (its window ended early). */
  forget(rule: string, period: string): void {
    this.planned.set(
      rule,
      (this.planned.get(rule) ?? []).filter((found) => found.period !== period),
    );
  }

  /** Opens a window that was not planned as such (run now, or one resumed after a restart). */
  openAt(rule: string, window: Interval, period?: string, obligation?: number): OpenWindow {
    const open: OpenWindow = {
      start: window.start,
      end: window.end,
      period,
      obligation,
      controls: new Set(),
      planned: undefined,
    };
    this.open.set(rule, open);
    return open;
  }

  openOf(rule: string): OpenWindow | undefined {
    return this.open.get(rule);
  }

  /**
   * The rules whose open window has ended by now, the last opened first: a rule that took over a
   * control from one opened before it puts its value back first, so the earlier rule then finds
   * its own value there and can put back what it found.
   */
  ended(now: number): string[] {
    return [...this.open]
      .filter(([, window]) => window.end <= now)
      .map(([rule]) => rule)
      .reverse();
  }

  /** Keeps a rule's window open until `end`. */
  extend(rule: string, end: number): void {
    const open = this.open.get(rule);
    if (open) this.open.set(rule, { ...open, end });
  }

  /** Closes the rule's window and gives up the controls it held. */
  close(rule: string): void {
    this.open.delete(rule);
    this.claims.release(rule);
  }

  /** Asks for a control for a rule, until the claim's end; an equal priority takes it only by wins_over. */
  claim(control: string, claim: Claim, now: number): ClaimAnswer {
    return this.claims.request(control, claim, now);
  }

  /** The claim another rule holds on a control now, if any; nothing is claimed. */
  holderOf(control: string, rule: string, now: number): Claim | undefined {
    return this.claims.heldByOther(control, rule, now);
  }

  /** A claim by another rule on one of the controls of the rule's open window, and that control. */
  heldByOther(rule: string, now: number): { readonly control: string; readonly holder: Claim } | undefined {
    for (const control of this.open.get(rule)?.controls ?? []) {
      const holder = this.claims.heldByOther(control, rule, now);
      if (holder) return { control, holder };
    }
    return undefined;
  }
}
