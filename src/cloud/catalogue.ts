import type { EndpointInfo, HttpMethod } from "./endpoint.js";
import { accountEndpoints } from "./sections/account.js";
import { communicationDeviceEndpoints } from "./sections/communication-devices.js";
import { emsEndpoints } from "./sections/ems.js";
import { energyFlowEndpoints } from "./sections/energy-flows.js";
import { evChargerEndpoints } from "./sections/ev-chargers.js";
import { inverterControlEndpoints } from "./sections/inverter-control.js";
import { inverterDataEndpoints } from "./sections/inverter-data.js";
import { notificationEndpoints } from "./sections/notifications.js";
import { presetProfileEndpoints } from "./sections/preset-profiles.js";
import { siteEndpoints } from "./sections/sites.js";
import { smartDeviceEndpoints } from "./sections/smart-devices.js";
import { snapshotEndpoints } from "./sections/snapshots.js";

/** Every endpoint the client knows: the reference's 44 plus the four of the API notes. */
export const ENDPOINTS: readonly EndpointInfo[] = [
  accountEndpoints,
  communicationDeviceEndpoints,
  emsEndpoints,
  evChargerEndpoints,
  energyFlowEndpoints,
  inverterDataEndpoints,
  inverterControlEndpoints,
  presetProfileEndpoints,
  snapshotEndpoints,
  notificationEndpoints,
  siteEndpoints,
  smartDeviceEndpoints,
].flatMap((section) => Object.values(section));

function templateRegex(template: string): RegExp {
  const pattern = template
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^/]+");
  return new RegExp(`^${pattern}$`);
}

const MATCHERS = ENDPOINTS.map((endpoint) => ({ endpoint, regex: templateRegex(endpoint.path) }));

/**
 * The known endpoint for a concrete method and path, preferring literal segments over
 * placeholders (so /account/search/x is Search Account, not Get Account Devices).
 */
export function findEndpoint(method: HttpMethod, path: string): EndpointInfo | undefined {
  const candidates = MATCHERS.filter((m) => m.endpoint.method === method && m.regex.test(path));
  candidates.sort((a, b) => placeholders(a.endpoint.path) - placeholders(b.endpoint.path));
  return candidates[0]?.endpoint;
}

function placeholders(template: string): number {
  return (template.match(/\{/g) ?? []).length;
}
