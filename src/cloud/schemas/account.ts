import { z } from "zod";
import { emptyAsObject, list, opt } from "./common.js";

export const account = z.object({
  id: z.number().int(),
  name: z.string(),
  first_name: opt(z.string()),
  surname: opt(z.string()),
  role: opt(z.string()),
  email: opt(z.string()),
  address: opt(z.string()),
  postcode: opt(z.string()),
  country: opt(z.string()),
  telephone_number: opt(z.string()),
  /** 'GMT' optionally followed by a signed hour offset. */
  timezone: opt(z.string()),
  /** IANA zone name; slot times are in this zone. */
  standard_timezone: opt(z.string()),
  company: emptyAsObject(z.record(z.string(), z.unknown())).nullish(),
  flags: list(z.string()),
});
export type Account = z.infer<typeof account>;
