import { buildBus } from "../app/build-bus.js";
import { buildGate } from "../app/build-gate.js";
import { buildSources } from "../app/build-sources.js";
import { StartupError } from "../app/errors.js";
import { Lifecycle } from "../app/lifecycle.js";
import type { Config } from "../config/index.js";
import type { ControlGate } from "../control/index.js";
import { devicesWithSettings } from "../control/index.js";
import type { Logger } from "../log/log.js";
import { cloudClient, cloudPath } from "../sources/cloud/index.js";
import type { ControllableDevice, DeviceControl, Inventory } from "../sources/index.js";
import type { Store } from "../store/index.js";
import type { Clock } from "../time/index.js";
import { cliLogger, openStoreOr, readConfig } from "./shared.js";

/** The house as `settings` reaches it: over the path the configuration uses, as the daemon would. */
export interface SettingsHouse {
  readonly inventory: Inventory;
  readonly control: DeviceControl;
  /** Every change goes through it, audited in the store. */
  readonly gate: ControlGate;
  /** The devices with settings. */
  readonly withSettings: readonly ControllableDevice[];
  /** The devices with settings, or only `--device`'s; a string says it has no such device. */
  devices(only: string | undefined): ControllableDevice[] | string;
  close(): Promise<void>;
}

/**
 * Opens the path the configuration names (the cloud, the dongles on the LAN, or both with
 * `source: auto`), reads what the house has, and builds the control gate on the store's audit log.
 * A string says why it could not.
 */
export async function openSettingsHouse(
  config: Config,
  store: Store,
  clock: Clock,
  logger: Logger,
): Promise<SettingsHouse | string> {
  const { url, token } = config.cloud;
  const client = url && token ? cloudClient(config, url, token) : undefined;
  if (!client && config.source !== "local")
    return "settings needs a path to the house: set cloud.url and cloud.token, or list the dongles under local: with source: local";
  const life = new Lifecycle(logger, undefined);
  const bus = buildBus(logger);
  try {
    const { source, control } = buildSources({
      config,
      cloud: client ? cloudPath(client) : undefined,
      given: undefined,
      bus,
      logger,
      clock,
      life,
    });
    const inventory = await source.discover({ logger });
    const { gate } = buildGate({
      config,
      control,
      audit: store.audit,
      store,
      inventory: () => inventory,
      bus,
      logger,
      clock,
      life,
    });
    return {
      inventory,
      control,
      gate,
      withSettings: devicesWithSettings(inventory),
      devices: (only) => chosenDevices(inventory, only),
      close: async () => {
        await gate.idle();
        await life.stopAll();
      },
    };
  } catch (error) {
    await life.stopAll();
    if (error instanceof StartupError) return error.message;
    // The path's own refusal (a token the cloud refuses, no dongle answering) says what to do.
    return `the house could not be read: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function chosenDevices(inventory: Inventory, only: string | undefined): ControllableDevice[] | string {
  const devices = devicesWithSettings(inventory);
  if (only === undefined) return devices;
  const wanted = devices.find((device) => device.serial.toLowerCase() === only.toLowerCase());
  if (wanted) return [wanted];
  const known = devices.map((device) => device.serial).join(", ") || "none";
  return `${only} is not a device of this house with settings (it has: ${known})`;
}

/**
 * What `settings backup` and `settings restore` share: the configuration read, the store opened
 * (`storeRefusal` says what its failure stops), the house opened over its path, `run` on it, and
 * all closed again. 2 for a bad configuration, 1 when the store or the house cannot be opened.
 */
export async function withSettingsHouse(
  options: { readonly config?: string | undefined; readonly storeRefusal: string },
  err: NodeJS.WritableStream,
  clock: Clock,
  run: (house: SettingsHouse) => Promise<number>,
): Promise<number> {
  const config = readConfig(options.config, err);
  if (typeof config === "number") return config;
  const store = openStoreOr(config, err, options.storeRefusal);
  if (typeof store === "number") return store;
  try {
    const house = await openSettingsHouse(config, store, clock, cliLogger(config));
    if (typeof house === "string") {
      err.write(`${house}\n`);
      return 1;
    }
    try {
      return await run(house);
    } finally {
      await house.close();
    }
  } finally {
    store.close();
  }
}
