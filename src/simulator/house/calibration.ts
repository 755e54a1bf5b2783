import type { CalibrationStage } from "../../vocabulary/index.js";

/**
 * The inverter's battery calibration as an installer (or the vendor's portal) would start it: a
 * stage the admin endpoint sets, served in HR 29 over the LAN. The cloud's API shows no
 * calibration (the API reference has none), so only the LAN tells it. The battery's
 * charge is not driven through the stages: the daemon under test reads the stage, not the cycle.
 */
export class BatteryCalibration {
  private current: CalibrationStage = "off";
  private since: number | undefined;

  get stage(): CalibrationStage {
    return this.current;
  }

  /** When the stage now running was set (epoch ms); undefined while off. */
  get startedAt(): number | undefined {
    return this.since;
  }

  set(stage: CalibrationStage, now: number): void {
    this.current = stage;
    this.since = stage === "off" ? undefined : now;
  }
}
