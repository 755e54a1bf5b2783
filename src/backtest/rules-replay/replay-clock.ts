import { VirtualClock } from "../../time/index.js";

/** The replay's clock: a VirtualClock that can also be set to an instant without running what falls due there yet. */
export class ReplayClock extends VirtualClock {
  /** Moves to `time` (not before now); timers due then wait for the next advance. */
  setTo(time: number): void {
    if (time > this.now()) this.moveTo(time);
  }
}
