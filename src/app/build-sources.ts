import type { EventBus } from "../bus/event-bus.js";
import type { Config } from "../config/index.js";
import type { DevicePathHealth } from "../health/index.js";
import type { Logger } from "../log/log.js";
import {
  type AutoSource,
  autoControl,
  autoSource,
  type CloudPath,
  type DeviceControl,
  type DeviceSource,
  type HistorySource,
  type LocalSource,
  localClockControl,
  localControl,
  localSource,
  type ModbusChargers,
  noWritePath,
  type OcppChargers,
  PathChoice,
  type PathSetting,
} from "../sources/index.js";
import type { Clock } from "../time/index.js";
import { type DeviceId, deviceIdOf } from "../vocabulary/device-id.js";
import { chargerPaths } from "./charger-paths.js";
import { StartupError } from "./errors.js";
import type { Lifecycle } from "./lifecycle.js";

/** How long a change over the LAN may take to be echoed: the request in flight before it and its own (5 s timeout each), and the pacing between. */
const LAN_ANSWER_MS = 12_000;

/** Another path to the house, e.g. an in-memory one in tests (`startApp`'s `sources`). */
export interface GivenSources {
  readonly source: DeviceSource;
  readonly control: DeviceControl;
  readonly history?: HistorySource;
}

/** The paths to the house: what reads it, what changes it, and what backfills its history. */
export interface Sources {
  readonly source: DeviceSource;
  readonly control: DeviceControl;
  /** The dongles on the LAN, when the daemon reads them. */
  readonly local: LocalSource | undefined;
  /** Changes over the LAN, when the daemon reads the dongles. */
  readonly lanControl: ReturnType<typeof localControl> | undefined;
  /** Every change refused, for a daemon with no path to write by. */
  readonly noWrites: ReturnType<typeof noWritePath>;
  readonly historySource: HistorySource | undefined;
  /** Each tracked device's path, by device id, with `source: auto`. */
  readonly paths: (() => Record<string, DevicePathHealth>) | undefined;
  /** A charger's own path carrying it now (OCPP, Modbus); undefined: neither. */
  readonly chargerPath: (uuid: string) => "OCPP" | "Modbus" | undefined;
}

/**
 * The source (cloud, local or auto, or the caller's) and the control every change goes through:
 * over the LAN with source: local, by each device's path with source: auto, by the cloud otherwise.
 */
export function buildSources(options: {
  readonly config: Config;
  /** The cloud's ports, when a cloud is configured (or simulated). */
  readonly cloud: CloudPath | undefined;
  readonly given: GivenSources | undefined;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly life: Lifecycle;
  /** The chargers over OCPP, when the central system runs: their twins on the LAN side under `source: auto`, the chargers themselves under `local`. */
  readonly ocpp?: OcppChargers | undefined;
  /** The chargers over Modbus TCP, when configured: after OCPP on the LAN side. */
  readonly modbus?: ModbusChargers | undefined;
}): Sources {
  const { config, cloud, given, bus, logger, clock, life, ocpp, modbus } = options;
  const chargers = chargerPaths({ config, ocpp, modbus, bus, clock });
  // A path is kept by serial; a charger's entities are its uuid's.
  const idOf = (serial: string): DeviceId =>
    ocpp?.deviceIdOfSerial(serial) ?? modbus?.deviceIdOfSerial(serial) ?? deviceIdOf(serial);
  const noWrites = noWritePath();
  const lan =
    !given && config.source !== "cloud"
      ? localSource({
          dongles: config.local,
          clock,
          timezone: config.timezone,
          liveMs: config.poll.local,
          logger,
          writes: true,
          runWithoutDongles: config.source === "local",
        })
      : undefined;
  if (lan) life.onStop(async () => lan.close());
  const local = lan && chargers.onLan(lan);
  const auto: AutoSource | undefined =
    local && cloud && config.source === "auto"
      ? autoSource({
          cloud: cloud.source(),
          local,
          choice: new PathChoice({
            clock,
            failbackMs: config.auto.failback,
            settings: Object.fromEntries(
              Object.entries(config.devices).map(([serial, device]): [string, PathSetting] => [serial, device.source]),
            ),
            onPath: (change) => {
              if (change.from !== undefined)
                logger.warn(
                  { device: change.serial, from: change.from, to: change.to },
                  `${change.serial}: live data now over ${change.to === "local" ? "its dongle on the LAN" : "the cloud"}: ${change.why}`,
                );
              bus.emit("devicePath", { device: idOf(change.serial), path: change.to, at: change.at });
            },
          }),
          lan: { liveMs: config.poll.local, clock },
          logger,
        })
      : undefined;
  const source = given?.source ?? auto ?? local ?? cloud?.source();
  if (!source) throw new StartupError("no path to the house: configure cloud, or local with source: local", 2);
  const lanControl = local && localControl({ dongleOf: (serial) => local.dongleOf(serial), answerMs: LAN_ANSWER_MS });
  const pathControl =
    given?.control ??
    (auto && cloud
      ? autoControl(cloud.control(), auto.choice, lanControl, (serial) => local?.dongleOf(serial)?.reachable ?? false)
      : undefined) ??
    lanControl ??
    cloud?.control() ??
    noWrites;
  // A charger on a path of its own (OCPP, then Modbus) takes its commands over it, before the cloud.
  const withChargers = local && chargers.control ? { ...pathControl, chargers: chargers.control } : pathControl;
  // Only the LAN can set a device's clock (docs/clock.md).
  const control =
    local && !given?.control
      ? { ...withChargers, clocks: localClockControl({ dongleOf: (serial) => local.dongleOf(serial) }) }
      : withChargers;
  const paths = auto && (() => pathsById(auto, idOf));
  const historySource = given ? given.history : cloud?.history();
  return { source, control, local, lanControl, noWrites, historySource, paths, chargerPath: chargers.pathOf };
}

/** Each tracked device's path, by device id, for bridge/health and the web page. */
function pathsById(auto: AutoSource, idOf: (serial: string) => DeviceId): Record<string, DevicePathHealth> {
  const out: Record<string, DevicePathHealth> = {};
  for (const [serial, state] of Object.entries(auto.choice.states()))
    out[idOf(serial)] = { ...state, since: new Date(state.since).toISOString() };
  return out;
}
