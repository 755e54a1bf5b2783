import type { CloudClient } from "../../cloud/index.js";
import type { DeviceControl, DeviceSource } from "../ports.js";
import { cloudControl } from "./control.js";
import { cloudHistory } from "./history.js";
import type { HistorySource } from "./ports.js";
import { cloudSource } from "./source.js";

/**
 * The cloud as a path to the house, in the ports' words: what the daemon's builder composes
 * (alone, or with the LAN under `source: auto`) without naming the client. Each port is made
 * when asked for, so a daemon that does not use one never builds it.
 */
export interface CloudPath {
  source(): DeviceSource;
  control(): DeviceControl;
  history(): HistorySource;
}

export function cloudPath(client: CloudClient): CloudPath {
  return {
    source: () => cloudSource(client),
    control: () => cloudControl(client),
    history: () => cloudHistory(client),
  };
}
