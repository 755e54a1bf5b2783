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
      /** DIRECT_DEBIT or NON_DIRECT_DEBIT on tariffs priced by how the bill is paid; null when one price fits all. */
      payment_method: z.string().nullish(),
    }),
  ),
});
export type OctopusRates = z.infer<typeof octopusRates>;

/** Pages of the Octopus API followed at most, to bound a misbehaving server. */
const MAX_PAGES = 10;

export interface SlotOptions {
  /** Keep only rates for this payment method (rates without one always count), e.g. "DIRECT_DEBIT". */
  readonly payment?: string;
  /**
   * The span a rate without an end (a price in force until changed) is laid over, clipped to
   * its own start; without it such a rate covers one slot.
   */
  readonly open?: { readonly from: number; readonly until: number };
}

/** Whether a rate applies to a payment method: rates without one apply to all. */
export function paidBy(method: string | null | undefined, payment: string | undefined): boolean {
  return payment === undefined || method === null || method === undefined || method === payment;
}

/** Half-hour slot start -> price (scaled, e.g. pence to pounds). */
export function slotPrices(body: OctopusRates, scale: number, options: SlotOptions = {}): Map<number, number> {
  const prices = new Map<number, number>();
  for (const result of body.results) {
    if (!paidBy(result.payment_method, options.payment)) continue;
    const start = Date.parse(result.valid_from);
    const open = result.valid_to ? undefined : options.open;
    const from = open ? Math.max(start, open.from) : start;
    const to = result.valid_to ? Date.parse(result.valid_to) : open ? open.until : start + SLOT_MS;
    const price = Math.round(result.value_inc_vat * scale * 1e6) / 1e6;
    for (let at = Math.floor(from / SLOT_MS) * SLOT_MS; at < to; at += SLOT_MS) prices.set(at, price);
  }
  return prices;
}

/** Every page of an Octopus list, following `next` (at most MAX_PAGES). */
export async function fetchPages(url: string, signal: AbortSignal | undefined): Promise<unknown[]> {
  const bodies: unknown[] = [];
  let next: string | undefined = url;
  while (next && bodies.length < MAX_PAGES) {
    const response = await fetch(next, { headers: { accept: "application/json" }, ...(signal ? { signal } : {}) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body: unknown = await response.json();
    bodies.push(body);
    const link = (body as { next?: unknown }).next;
    next = typeof link === "string" && link.length > 0 ? link : undefined;
  }
  return bodies;
}
