import { isoSeconds } from "../../time/index.js";
import type { FaultEventBody } from "./bodies.js";

interface RaisedFault {
  readonly name: string;
  readonly startMs: number;
  endMs: number | undefined;
}

/**
 * Faults raised and cleared by hand (the admin endpoint), beside the house's own random ones:
 * the inverter's fault registers on the LAN show the active ones, and the cloud's events list
 * all of them, an active one with no end.
 */
export class RaisedFaults {
  private readonly faults: RaisedFault[] = [];

  /** Raises a fault not already active; true when it was raised now. */
  raise(name: string, atMs: number): boolean {
    if (this.active().includes(name)) return false;
    this.faults.push({ name, startMs: atMs, endMs: undefined });
    return true;
  }

  /** Clears an active fault; true when it was active. */
  clear(name: string, atMs: number): boolean {
    const fault = this.faults.find((candidate) => candidate.name === name && candidate.endMs === undefined);
    if (!fault) return false;
    fault.endMs = atMs;
    return true;
  }

  /** The names of the faults active now, in the order they were raised. */
  active(): string[] {
    return this.faults.filter((fault) => fault.endMs === undefined).map((fault) => fault.name);
  }

  /** The events as the cloud lists them: started by `nowMs`, overlapping [fromMs, toMs]; only active ones unless `cleared`. */
  events(fromMs: number, toMs: number, nowMs: number, cleared: boolean): FaultEventBody[] {
    return this.faults
      .filter((fault) => fault.startMs <= nowMs && fault.startMs <= toMs && (fault.endMs ?? Infinity) > fromMs)
      .filter((fault) => cleared || fault.endMs === undefined || fault.endMs > nowMs)
      .map((fault) => ({
        event: fault.name,
        start_time: isoSeconds(fault.startMs),
        end_time: fault.endMs === undefined || fault.endMs > nowMs ? null : isoSeconds(fault.endMs),
      }));
  }
}
