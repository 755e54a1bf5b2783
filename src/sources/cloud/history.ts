import type { CloudClient } from "../../cloud/index.js";
import type { HistorySource } from "./ports.js";

/** The cloud's long history, read only. */
export function cloudHistory(client: CloudClient): HistorySource {
  return {
    account: client.account,
    communicationDevices: client.communicationDevices,
    inverterData: client.inverterData,
    energyFlows: client.energyFlows,
    evChargers: client.evChargers,
    smartDevices: client.smartDevices,
  };
}
