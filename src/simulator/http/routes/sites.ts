import type { z } from "zod";
import type { site as siteSchema } from "../../../cloud/index.js";
import { isoSeconds } from "../../../time/index.js";
import type { AccountRecord } from "../../world/accounts.js";
import type { World } from "../../world/world.js";
import { notFound, ok, paginate } from "../envelope.js";
import type { RequestContext, Route } from "../route.js";
import { pageQuery } from "./account.js";

function siteBody(world: World, account: AccountRecord): z.input<typeof siteSchema> | undefined {
  const site = account.entry.site;
  if (!site) return undefined;
  const serials = [...world.inverters.values()].filter((i) => i.account === account).map((i) => i.serial);
  return {
    id: site.id,
    name: site.name,
    account: account.username,
    date_created: isoSeconds(
      Math.min(
        ...[...world.inverters.values()].filter((i) => i.account === account).map((i) => i.commissionMs),
        world.startMs,
      ),
    ).slice(0, 10),
    country: world.scenario.country,
    timezone: world.scenario.timezone,
    tz_timezone: world.scenario.timezone,
    latitude: world.scenario.latitude,
    longitude: world.scenario.longitude,
    type: site.type,
    products: serials.map((serial) => ({ type: "inverter", serial })),
  };
}

function visibleSites(c: RequestContext) {
  return [...c.world.visibleAccounts(c.actor)]
    .map((name) => c.world.accounts.get(name))
    .map((account) => (account ? siteBody(c.world, account) : undefined))
    .filter((site): site is z.input<typeof siteSchema> => site !== undefined);
}

export const siteRoutes: readonly Route[] = [
  {
    method: "GET",
    path: "/site",
    scopes: ["api:site:list"],
    handle: (c) => paginate(visibleSites(c), pageQuery(c), c.url),
  },
  {
    method: "GET",
    path: "/site/{site_plant_id}",
    scopes: ["api:site:read"],
    handle: (c) => {
      const found = visibleSites(c).find((s) => String(s.id) === c.params.site_plant_id);
      return found ? ok(found) : notFound("Site not found.");
    },
  },
];
