import type { ServedInverter } from "../../world/world.js";
import { type Answer, notFound } from "../envelope.js";
import type { RequestContext } from "../route.js";

/**
 * Runs `handle` with the inverter, EMS or gateway named in the path (in any case), or answers
 * 404 when the actor cannot see it.
 */
export function withInverter(context: RequestContext, handle: (record: ServedInverter) => Answer): Answer {
  const serial = context.params.inverter_serial_number ?? "";
  const record = context.world.inverter(serial, context.actor, context.now);
  return record ? handle(record) : notFound(`Inverter ${serial} not found.`);
}
