import type { ChargerReading } from "../../evc/index.js";
import { isoSeconds } from "../../time/index.js";
import { type ChargerSession, round } from "../../vocabulary/index.js";
import { modbusOpenSession } from "./readings.js";

/**
 * A charger's sessions as its Modbus registers show them: they hold the session under way only
 * (its energy and duration, zero once it ends), so the one that ended is remembered here, closed
 * at the register's last reading. Its start is fixed when first seen, so that it does not move
 * by a second from one read to the next.
 */
export class ModbusSessions {
  private open: { readonly startedAtMs: number; readonly meterStartKwh: number } | undefined;
  private latest: ChargerSession | undefined;

  /** The newest session seen, open or not. */
  get session(): ChargerSession | undefined {
    return this.latest;
  }

  /** The newest session after this reading, and whether it changed. */
  update(
    reading: ChargerReading,
    at: number,
  ): { readonly session: ChargerSession | undefined; readonly changed: boolean } {
    const now = modbusOpenSession(reading, at);
    const before = this.latest;
    if (now) {
      // The same session while its start on the meter holds (to the register's tenth of a kWh).
      if (!this.open || Math.abs(this.open.meterStartKwh - now.meterStartKwh) > 0.11) this.open = now;
      this.latest = {
        startedAt: isoSeconds(this.open.startedAtMs),
        open: true,
        meterStartKwh: this.open.meterStartKwh,
        meterStopKwh: null,
      };
    } else if (this.open && this.latest) {
      this.latest = { ...this.latest, open: false, meterStopKwh: round(reading.energyKwh) };
      this.open = undefined;
    }
    const changed =
      before?.startedAt !== this.latest?.startedAt ||
      before?.open !== this.latest?.open ||
      before?.meterStartKwh !== this.latest?.meterStartKwh;
    return { session: this.latest, changed };
  }
}
