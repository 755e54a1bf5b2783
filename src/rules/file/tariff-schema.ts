import { z } from "zod";
import { duration } from "../../time/index.js";
import { offHalfHourGrid } from "../tariffs/half-hour-grid.js";
import { clock, days, hoursRange, months, price } from "./schema-common.js";

/** Local hours like "00:30-07:30", from :00 or :30 to :00 or :30. */
const gridHours = hoursRange.superRefine((hours, ctx) => {
  const problem = offHalfHourGrid(hours);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** A time-of-use zone: every field given must match; the last matching zone of the list wins. */
export const zoneSchema = z.strictObject({
  price,
  hours: gridHours.optional(),
  days: days.optional(),
  months: months.optional(),
});

export const fixedTariffSchema = z.strictObject({ type: z.literal("fixed"), price });

/** A base price with time-of-use zones: Octopus Go, Cosy, Flux, Economy 7. */
export const zonesTariffSchema = z.strictObject({
  type: z.literal("zones"),
  price,
  zones: z.array(zoneSchema).min(1),
});

/** For slots without a published price: a plain price, or a price with zones. */
export const fallbackSchema = z.union([price, z.strictObject({ price, zones: z.array(zoneSchema).min(1).optional() })]);

const httpUrl = z.string().refine((text) => {
  try {
    return ["http:", "https:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}, "must be a URL starting with http:// or https://");

/** Half-hourly prices in the Octopus format, from a file (relative to rules.yaml) or a URL. */
export const agileTariffSchema = z
  .strictObject({
    type: z.literal("agile"),
    file: z.string().min(1).optional(),
    url: httpUrl.optional(),
    /** How often to look again while tomorrow's prices are still missing. */
    refresh: duration.default(30 * 60_000),
    /** When the next day's prices are usually out (Octopus: about 16:00 UK time). */
    published_at: clock.default("16:00"),
    /** Multiplies value_inc_vat: Octopus publishes pence per kWh, 0.01 makes pounds. */
    scale: z.number().positive().default(0.01),
    fallback: fallbackSchema.optional(),
  })
  .refine((tariff) => (tariff.file === undefined) !== (tariff.url === undefined), {
    message: "an agile tariff needs file: or url: (one of them)",
  });

/** The 14 regions (GSP groups) of Octopus tariff codes: A to P without I and O. */
export const OCTOPUS_REGIONS = ["A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M", "N", "P"] as const;

/**
 * A tariff of the Octopus public products API, named by product and region: its unit rates
 * (Agile half-hours, Go/Cosy/Flux windows, Tracker days) and its standing charge are fetched.
 */
export const octopusTariffSchema = z.strictObject({
  type: z.literal("octopus"),
  product: z
    .string()
    .regex(
      /^[A-Z0-9]+(-[A-Z0-9]+)+$/,
      "expected an Octopus product code in capitals, like AGILE-24-10-01, GO-VAR-22-10-14 or SILVER-24-12-31",
    ),
  region: z.enum(OCTOPUS_REGIONS, {
    error: `expected the region letter of your tariff code (E-1R-<product>-<region>): one of ${OCTOPUS_REGIONS.join(" ")}`,
  }),
  /**
   * For a two-rate meter (Economy 7 style, tariff code E-2R-...): the local hours of its night
   * rate. The API publishes the day and night prices but not the hours, which depend on the meter.
   */
  night_hours: gridHours.optional(),
  /** Tariffs priced by how the bill is paid publish both; the others one price for all. */
  payment: z.enum(["direct_debit", "non_direct_debit"]).default("direct_debit"),
  base_url: httpUrl.default("https://api.octopus.energy"),
  refresh: duration.default(30 * 60_000),
  published_at: clock.default("16:00"),
  /** Multiplies value_inc_vat: Octopus publishes pence per kWh (and per day), 0.01 makes pounds. */
  scale: z.number().positive().default(0.01),
  fallback: fallbackSchema.optional(),
});

export const tariffSchema = z.discriminatedUnion("type", [
  fixedTariffSchema,
  zonesTariffSchema,
  agileTariffSchema,
  octopusTariffSchema,
]);

export const tariffsSchema = z.strictObject({
  /** ISO 4217 code; prices are per kWh in this currency (GBP/kWh). */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "expected a currency code like GBP")
    .default("GBP"),
  import: tariffSchema.optional(),
  export: tariffSchema.optional(),
});

export type Zone = z.infer<typeof zoneSchema>;
export type TariffConfig = z.infer<typeof tariffSchema>;
export type AgileTariffConfig = z.infer<typeof agileTariffSchema>;
export type OctopusTariffConfig = z.infer<typeof octopusTariffSchema>;
export type FallbackConfig = z.infer<typeof fallbackSchema>;
export type TariffsConfig = z.infer<typeof tariffsSchema>;
