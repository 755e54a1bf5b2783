import type { Logger } from "../../log/log.js";
import type { Clock } from "../../time/index.js";
import { PathFailure } from "../../vocabulary/index.js";
import type { Inventory } from "../inventory.js";
import type { DeviceSource } from "../ports.js";
import type { PathChoice } from "./path-choice.js";
import { withLanSteps } from "./register-steps.js";
import { composeResources } from "./resources.js";

/** Where the device list came from at the last discovery. */
export type InventoryFrom = "cloud" | "local";

export interface AutoSource extends DeviceSource {
  readonly choice: PathChoice;
  /** Where the last discovery's devices came from; undefined before the first. */
  inventoryFrom(): InventoryFrom | undefined;
  close(): void;
}

export interface AutoSourceOptions {
  readonly cloud: DeviceSource;
  /** The dongles on the LAN (localSource): a device whose dongle's address answers for another device moves to the cloud. */
  readonly local: DeviceSource & {
    close(): void;
    /** The LAN's WrongDeviceEvent: a device, its dongle's address, and what answered there instead. */
    onWrongDevice?(listener: (event: { serial: string; where: string; why: string }) => void): () => void;
  };
  readonly choice: PathChoice;
  /** Live polls' interval while a device is on its dongle (poll.local), and the clock that times them. */
  readonly lan: { readonly liveMs: number; readonly clock: Clock };
  readonly logger?: Logger;
}

/**
 * `source: auto`: the cloud's inventory when it answers (settings, presets, EV chargers, smart
 * devices, sites, the account), each inverter and EMS matched to its dongle by serial; the
 * LAN's when the cloud refuses or is away. Each device's live data over its dongle while it
 * answers, over the cloud otherwise (see composeResources and PathChoice).
 */
export function autoSource(options: AutoSourceOptions): AutoSource {
  const { cloud, local, choice } = options;
  let from: InventoryFrom | undefined;
  // An answer from another device (a read, an echo, a read-back): the device goes to the cloud at
  // once, and comes back only once its own dongle has answered every poll for auto.failback.
  const unsubscribe = local.onWrongDevice?.((event) => {
    choice.lanFailed(event.serial);
    choice.use(event.serial, "cloud", `its dongle at ${event.where} ${event.why}`);
  });
  return {
    choice,
    budget: cloud.budget,
    inventoryFrom: () => from,
    async discover(discoverOptions = {}) {
      const logger = discoverOptions.logger ?? options.logger;
      // A refresh keeps what the cloud listed before only when the cloud listed it.
      const { previous, ...rest } = discoverOptions;
      const [overCloud, overLan] = await Promise.allSettled([
        cloud.discover(previous && from === "cloud" ? discoverOptions : rest),
        local.discover(rest),
      ]);
      discoverOptions.signal?.throwIfAborted();
      if (overCloud.status === "fulfilled") {
        if (overLan.status === "rejected")
          logger?.warn(
            `source auto: no dongle answered (${(overLan.reason as Error).message}); every device is on the cloud`,
          );
        if (overLan.status === "fulfilled") warnUnmatched(overCloud.value, overLan.value, logger);
        if (from === "local") logger?.info("source auto: the cloud answers again; its device list is used");
        from = "cloud";
        return overLan.status === "fulfilled" ? withLanSteps(overCloud.value, overLan.value) : overCloud.value;
      }
      // A refresh keeps the cloud's list through a refusal or an outage (the inventory stays as it
      // is): trading it for the LAN's would take the EV chargers and smart devices out of Home Assistant.
      if (!(overCloud.reason instanceof PathFailure) || overLan.status === "rejected" || (previous && from === "cloud"))
        throw overCloud.reason;
      logger?.warn(
        { err: overCloud.reason.message },
        `source auto: the cloud did not give the device list, so the daemon carries on over the LAN with what the dongles tell (no long history, EV chargers or smart devices until the cloud answers; the inverters' settings change over their dongles): ${overCloud.reason.message}`,
      );
      from = "local";
      return overLan.value satisfies Inventory;
    },
    resources: (inventory, poll, now) =>
      composeResources({
        choice,
        lan: options.lan,
        cloud: cloud.resources(inventory, poll, now),
        local: local.resources(inventory, poll, now),
        ...(options.logger ? { logger: options.logger } : {}),
      }),
    onDevicesChanged: (listener) => local.onDevicesChanged?.(listener) ?? (() => undefined),
    close: () => {
      unsubscribe?.();
      local.close();
    },
  };
}

/** A dongle whose device the account does not list is read by nothing: it is matched by serial. */
function warnUnmatched(cloud: Inventory, lan: Inventory, logger: Logger | undefined): void {
  const listed = new Set([...cloud.inverters, ...cloud.ems].map((device) => device.serial.toUpperCase()));
  const onLan = [...lan.inverters.filter((inverter) => inverter.dongleSerial !== ""), ...lan.ems];
  for (const device of onLan)
    if (!listed.has(device.serial.toUpperCase()))
      logger?.warn(
        `source auto: a dongle under local: answers for ${device.serial}, which the cloud's account does not list: it is not read (check that it is this account's device)`,
      );
}
