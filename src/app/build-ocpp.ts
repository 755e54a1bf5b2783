import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Config } from "../config/index.js";
import type { Logger } from "../log/log.js";
import { type CentralSystem, centralSystemSettings, startCentralSystem } from "../ocpp/index.js";
import { OcppChargers } from "../sources/index.js";
import { MemoryOcppSessions, type Store } from "../store/index.js";
import type { Clock } from "../time/index.js";
import { StartupError } from "./errors.js";
import type { Lifecycle } from "./lifecycle.js";

/**
 * The OCPP central system, when `ocpp.enabled`: the charge points connect to it, and the chargers
 * paired by serial (`charge_points[].charger`) read over it (sources/ocpp/). Its sessions are kept
 * in the store (in memory without one).
 */
export async function startOcpp(options: {
  readonly config: Config;
  readonly configFile: string | undefined;
  readonly store: Store | undefined;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly life: Lifecycle;
}): Promise<{ readonly central: CentralSystem; readonly chargers: OcppChargers } | undefined> {
  const { config, configFile, store, clock, logger, life } = options;
  if (!config.ocpp.enabled) return undefined;
  const base = configFile ? dirname(configFile) : process.cwd();
  const readPem = (file: string): string => {
    try {
      return readFileSync(resolve(base, file), "utf8");
    } catch (error) {
      throw new StartupError(`ocpp.tls: cannot read ${file} (${(error as Error).message}): check the path`, 2);
    }
  };
  const settings = centralSystemSettings(config.ocpp, readPem);
  const central = await startCentralSystem({
    ...settings,
    sessions: store?.ocppSessions ?? new MemoryOcppSessions(),
    clock,
    logger: logger.child({ part: "ocpp" }),
  }).catch((error: unknown) => {
    throw new StartupError(
      `ocpp: the central system cannot listen on ${config.ocpp.host}:${config.ocpp.port} (${(error as Error).message}): free the port or set ocpp.port`,
      2,
    );
  });
  const paired = config.ocpp.charge_points.flatMap((cp) => (cp.charger ? [{ id: cp.id, serial: cp.charger }] : []));
  for (const cp of config.ocpp.charge_points.filter((one) => !one.charger))
    logger.warn(
      `ocpp: charge point ${cp.id} names no charger: set charge_points[].charger to the charger's serial so its readings take the charger's place`,
    );
  const chargers = new OcppChargers(central, paired);
  life.onStop(async () => {
    chargers.close();
    await central.close();
  });
  logger.info(
    { port: central.port, charge_points: config.ocpp.charge_points.map((cp) => cp.id) },
    `ocpp: central system listening on ${config.ocpp.host}:${central.port}`,
  );
  return { central, chargers };
}
