import type { z } from "zod";
import type { account as accountSchema } from "../../../cloud/index.js";
import type { AccountRecord } from "../../world/accounts.js";
import type { World } from "../../world/world.js";
import { notFound, ok, paginate } from "../envelope.js";
import type { RequestContext, Route } from "../route.js";
import { devicesOf } from "./device-bodies.js";

/** The account as the service shows it at simulated time `now` (the GMT label follows summer time). */
export function accountBody(world: World, account: AccountRecord, now: number): z.input<typeof accountSchema> {
  const offsetHours = tzOffsetHours(world.scenario.timezone, now);
  return {
    id: account.id,
    name: account.username,
    first_name: account.firstName,
    surname: account.surname,
    role: account.role,
    email: `${account.username}@example.com`,
    address: "1 Sunny Lane\nSolartown",
    postcode: "SO1 1AR",
    country: world.scenario.country,
    telephone_number: "01234 567890",
    timezone: offsetHours === 0 ? "GMT" : `GMT${offsetHours > 0 ? "+" : ""}${offsetHours}`,
    standard_timezone: world.scenario.timezone,
    company: account.type === "company" ? { name: `${account.firstName} Energy Ltd` } : null,
    flags: account.subscription ? ["premium"] : [],
  };
}

function tzOffsetHours(timezone: string, at: number): number {
  const part = new Intl.DateTimeFormat("en-GB", { timeZone: timezone, timeZoneName: "shortOffset" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName")?.value;
  const match = /GMT([+-]\d+)?/.exec(part ?? "");
  return match?.[1] ? Number(match[1]) : 0;
}

/** An account the actor may look at: itself or one below it. */
function visibleAccount(context: RequestContext, find: (a: AccountRecord) => boolean) {
  for (const name of context.world.visibleAccounts(context.actor)) {
    const account = context.world.accounts.get(name);
    if (account && find(account)) return account;
  }
  return undefined;
}

export const accountRoutes: readonly Route[] = [
  {
    method: "GET",
    path: "/account",
    scopes: ["api:account:read"],
    handle: (c) => ok(accountBody(c.world, c.actor.account, c.now)),
  },
  {
    method: "GET",
    path: "/account/{user_id}",
    scopes: ["api:account:read"],
    accountType: "engineer+",
    handle: (c) => {
      const account = visibleAccount(c, (a) => String(a.id) === c.params.user_id);
      return account ? ok(accountBody(c.world, account, c.now)) : notFound("Account not found.");
    },
  },
  {
    method: "GET",
    path: "/account/{user_username}/devices",
    scopes: ["api:inverter:list", "api:account:read"],
    accountType: "engineer+",
    handle: (c) => {
      const account = visibleAccount(c, (a) => a.username === c.params.user_username);
      if (!account) return notFound("Account not found.");
      return paginate(devicesOf(c.world, [account.username], c.now), pageQuery(c), c.url);
    },
  },
  {
    method: "GET",
    path: "/account/search/{user_username}",
    scopes: ["api:account:read"],
    accountType: "engineer+",
    handle: (c) => {
      const needle = (c.params.user_username ?? "").toLowerCase();
      const account = visibleAccount(c, (a) => a.username.toLowerCase() === needle);
      return account ? ok(accountBody(c.world, account, c.now)) : notFound("Account not found.");
    },
  },
  {
    method: "GET",
    path: "/account-children",
    scopes: ["api:account:list"],
    accountType: "engineer+",
    handle: (c) => paginate(childrenOf(c.world, c.actor.account, c.now), pageQuery(c), c.url),
  },
  {
    method: "GET",
    path: "/account-children/{user_id}",
    scopes: ["api:account:read", "api:account:list"],
    accountType: "company+",
    handle: (c) => {
      const account = visibleAccount(c, (a) => String(a.id) === c.params.user_id);
      if (!account) return notFound("Account not found.");
      return paginate(childrenOf(c.world, account, c.now), pageQuery(c), c.url);
    },
  },
  {
    method: "GET",
    path: "/sso/me/accounts",
    scopes: ["api:account:list", "api:sso:list"],
    handle: (c) => ok([accountBody(c.world, c.actor.account, c.now)]),
  },
];

function childrenOf(world: World, account: AccountRecord, now: number) {
  return account.children
    .map((name) => world.accounts.get(name))
    .filter((a): a is AccountRecord => a !== undefined)
    .map((a) => accountBody(world, a, now));
}

export function pageQuery(c: RequestContext): { page?: string; pageSize?: string } {
  return { page: c.query.get("page") ?? undefined, pageSize: c.query.get("pageSize") ?? undefined };
}
