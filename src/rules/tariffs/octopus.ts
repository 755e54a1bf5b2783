import { z } from "zod";
import { SLOT_MS } from "../../time/index.js";

/** Octopus `standard-unit-rates`: newest first, times in UTC, value_inc_vat in pence per kWh. */
export const octopusRates = z.object({
  next: z.string().nullish(),
  results: z.array(
    z.object({
      value_inc_vat: z.number(),
      valid_from: z.iso.datetime({ offset: true }),
      valid_to: z.iso.datetime({ offset: true }).nullish(),
    }),
  ),
});
export type OctopusRates = z.infer<typeof octopusRates>;

/** Half-hour slot start -> price (scaled, e.g. pence to pounds). A rate without an end covers one slot. */
export function slotPrices(body: OctopusRates, scale: number): Map<number, number> {
  const prices = new Map<number, number>();
  for (const result of body.results) {
    const from = Date.parse(result.valid_from);
    const to = result.valid_to ? Date.parse(result.valid_to) : from + SLOT_MS;
    const price = Math.round(result.value_inc_vat * scale * 1e6) / 1e6;
    for (let at = Math.floor(from / SLOT_MS) * SLOT_MS; at < to; at += SLOT_MS) prices.set(at, price);
  }
  return prices;
}
