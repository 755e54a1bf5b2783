import type { CloudClient } from "../../cloud/index.js";
import type { DeviceSource } from "../ports.js";
import { discoverInventory } from "./discover.js";
import { buildResources } from "./resources/index.js";

/** The cloud as a DeviceSource: discovery from the account's listings, polls through its rate budget. */
export function cloudSource(client: CloudClient): DeviceSource {
  const budget = client.http.budget;
  return {
    budget: {
      windowMs: budget.windowMs,
      liveAllowance: () => budget.allowance("live"),
      limit: () => budget.state().limit,
      expectLive: (perWindow) => budget.expectLive(perWindow),
    },
    discover: (options) => discoverInventory(client, options),
    resources: (inventory, poll, now) => buildResources({ client, now, timezone: inventory.timezone }, inventory, poll),
  };
}
