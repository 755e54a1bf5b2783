import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { Config } from "../config/index.js";
import { type ClockSyncMode, ClockWatch, type ControlGate, type OwnClockVerdict } from "../control/index.js";
import type { Logger } from "../log/log.js";
import type { DeviceControl } from "../sources/index.js";
import type { Inventory } from "../telemetry/index.js";
import type { Clock } from "../time/index.js";
import { deviceIdOf } from "../vocabulary/device-id.js";
import { ownClockJudge } from "./own-clock-trust.js";

const NAME = "clock";

/**
 * The devices' clocks (docs/clock.md): each reading's `clock_drift` to the clock watch, which sets
 * a clock through the gate or warns, by `clock.sync` (left out: auto where a path can set the
 * clock, the LAN; warn elsewhere).
 */
export function buildClock(options: {
  readonly config: Config;
  readonly gate: ControlGate;
  readonly control: DeviceControl;
  readonly inventory: () => Inventory;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly judgeOwnClock?: () => Promise<OwnClockVerdict>;
}): { readonly feature: Feature; readonly watch: ClockWatch } {
  const { config, gate, control, bus, clock } = options;
  const logger = options.logger.child({ module: "clock" });
  const modeOf = (serial: string): ClockSyncMode =>
    config.clock.sync ?? (control.clocks?.carries(serial) ? "auto" : "warn");
  const watch = new ClockWatch({
    sync: (request, requester) => gate.syncClock(request, requester),
    modeOf,
    timeZone: () => options.inventory().timezone,
    judgeOwnClock: options.judgeOwnClock ?? ownClockJudge(clock),
    clock,
    logger,
    onProblem: (serial, problem, message) =>
      bus.emit("clockProblem", { device: deviceIdOf(serial), problem, ...(message === undefined ? {} : { message }) }),
  });
  const feature: Feature = {
    name: NAME,
    start() {
      bus.on("fetched", NAME, (fetched) => {
        if (fetched.kind !== "inverter.live" && fetched.kind !== "ems") return;
        const drift = fetched.values.clock_drift;
        if (typeof drift === "number") return watch.seen(fetched.serial, drift);
      });
    },
    stop() {
      bus.removeAll(NAME);
    },
  };
  return { feature, watch };
}
