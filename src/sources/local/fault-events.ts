import { isoSeconds } from "../../time/index.js";
import type { InverterFault } from "../../vocabulary/index.js";
import type { Fetched } from "../fetched.js";

type EventsFetched = Extract<Fetched, { readonly kind: "inverter.events" }>;

const faultOf = (name: string, startMs: number, endMs: number | null): InverterFault => ({
  name,
  startedAt: isoSeconds(startMs),
  startMs,
  written: { start: isoSeconds(startMs), end: endMs === null ? null : isoSeconds(endMs) },
});

/**
 * The fault registers hold only which faults are active now, with no times: this makes them the
 * events the cloud lists (src/sources/cloud/resources/events.ts), each starting when a poll first
 * read it and ending when one first read it gone, so both paths give Home Assistant the same.
 */
export class LanFaultEvents {
  private readonly started = new Map<string, number>();
  private cleared: InverterFault | undefined;

  read(serial: string, active: readonly string[], at: number): EventsFetched {
    for (const name of active) if (!this.started.has(name)) this.started.set(name, at);
    const ended = [...this.started]
      .filter(([name]) => !active.includes(name))
      .map(([name, startMs]) => faultOf(name, startMs, at));
    for (const fault of ended) this.started.delete(fault.name);
    const current = [...this.started]
      .map(([name, startMs]) => faultOf(name, startMs, null))
      .sort((a, b) => (b.startMs ?? 0) - (a.startMs ?? 0));
    // Of faults cleared in the same poll, the one that started last stands for them.
    const lastEnded = ended.sort((a, b) => (b.startMs ?? 0) - (a.startMs ?? 0))[0];
    if (lastEnded) this.cleared = lastEnded;
    const latest = [current[0], this.cleared]
      .filter((fault) => fault !== undefined)
      .sort((a, b) => (b.startMs ?? 0) - (a.startMs ?? 0))[0];
    return { kind: "inverter.events", serial, at, active: current, ended: lastEnded, latest };
  }
}
