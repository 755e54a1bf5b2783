import { z } from "zod";
import { list, numeric, opt, timestamp } from "./common.js";

export const site = z.object({
  /** The documentation's examples leave it out. */
  id: opt(z.number().int()),
  name: z.string(),
  /** The owner's username. */
  account: opt(z.string()),
  date_created: opt(timestamp),
  /** Upper-case name with underscores, e.g. UNITED_KINGDOM. */
  country: opt(z.string()),
  timezone: opt(z.string()),
  /** IANA zone name. */
  tz_timezone: opt(z.string()),
  latitude: opt(numeric),
  longitude: opt(numeric),
  /** e.g. SINGLE_PHASE; the full set is not documented. */
  type: opt(z.string()),
  /** The reference does not describe the items, so they are kept as sent. */
  products: list(z.unknown()),
});
export type Site = z.infer<typeof site>;
