import type { DeviceControl } from "../ports.js";
import { withoutCloud } from "../ports.js";
import { NO_LAN_WRITES } from "./inventory.js";

/** A change or an account read asked of a daemon that reads over the LAN with no cloud configured. */
export class NoWritePathError extends Error {
  override readonly name = "NoWritePathError";
  constructor() {
    super(NO_LAN_WRITES);
  }
}

const refuse = async (): Promise<never> => {
  throw new NoWritePathError();
};

/**
 * The DeviceControl of a daemon with `source: local` and no cloud: every write and every read of a
 * control value is refused with what to configure, and nothing is sent anywhere. (Local writes,
 * through the same gate, are the next issue.)
 */
export function noWritePath(): DeviceControl {
  return {
    inverters: { readSetting: refuse, readPreset: refuse, writeSetting: refuse, applyPreset: refuse },
    cloudOnly: withoutCloud(() => new NoWritePathError()),
    answerMs: 0,
    pathOf: () => "local",
  };
}
