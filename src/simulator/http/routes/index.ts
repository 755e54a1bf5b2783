import type { Route } from "../route.js";
import { accountRoutes } from "./account.js";
import { deviceRoutes } from "./devices.js";
import { evChargerRoutes } from "./ev-chargers.js";
import { inverterControlRoutes } from "./inverter-control.js";
import { inverterDataRoutes } from "./inverter-data.js";
import { notificationRoutes } from "./notifications.js";
import { presetProfileRoutes } from "./preset-profiles.js";
import { siteRoutes } from "./sites.js";
import { smartDeviceRoutes } from "./smart-devices.js";
import { snapshotRoutes } from "./snapshots.js";

/** Every endpoint of the reference and the API notes. */
export const ROUTES: readonly Route[] = [
  ...accountRoutes,
  ...deviceRoutes,
  ...evChargerRoutes,
  ...inverterDataRoutes,
  ...inverterControlRoutes,
  ...presetProfileRoutes,
  ...snapshotRoutes,
  ...notificationRoutes,
  ...siteRoutes,
  ...smartDeviceRoutes,
];
