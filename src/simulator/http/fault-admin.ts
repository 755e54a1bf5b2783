import { z } from "zod";
import { FAULT_WORDS, THREE_PHASE_FAULT_WORDS } from "../../local/index.js";
import type { SimClock } from "../clock.js";
import type { World } from "../world/world.js";
import { type Answer, invalidIssues, notFound, ok } from "./envelope.js";

/** The change's schema for an inverter whose fault registers hold these words. */
function faultChangeOf(words: readonly string[]) {
  const faultWord = z.string().refine((word) => words.includes(word), {
    message: `one of the inverter's fault words: ${words.join(", ")}`,
  });
  return z.strictObject({
    raise: z.array(faultWord).max(64).optional(),
    /** The words to clear, or "all". */
    clear: z.union([z.array(faultWord).max(64), z.literal("all")]).optional(),
  });
}

const SINGLE_PHASE_CHANGE = faultChangeOf(FAULT_WORDS);
const THREE_PHASE_CHANGE = faultChangeOf(THREE_PHASE_FAULT_WORDS);

/**
 * `/__admin/devices/{serial}/faults` (docs/simulator.md): raises and clears an inverter's faults,
 * in the words of its fault registers (src/local/registers/faults.ts; three-phase-faults.ts on a
 * three-phase inverter). Undefined when the path is not about faults.
 */
export function handleFaultAdmin(
  world: World,
  clock: SimClock,
  method: string,
  path: string,
  body: unknown,
): Answer | undefined {
  const match = /^\/devices\/([^/]+)\/faults$/.exec(path);
  if (!match?.[1]) return undefined;
  const serial = decodeURIComponent(match[1]);
  const inverter = world.inverters.get(serial);
  if (!inverter) return notFound(`no inverter "${serial}" (an EMS or gateway has no fault registers of its own)`);
  const { model } = inverter;
  model.advanceTo(clock.now());
  if (method === "GET") return ok({ serial: inverter.serial, active: model.raisedFaults.active() });
  if (method !== "POST") return notFound(`no admin action ${method} ${path}`);
  const schema = inverter.entry.kind === "three-phase" ? THREE_PHASE_CHANGE : SINGLE_PHASE_CHANGE;
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    return invalidIssues(parsed.error.issues);
  }
  const at = model.nowMs();
  const { raise = [], clear = [] } = parsed.data;
  for (const word of clear === "all" ? model.raisedFaults.active() : clear) model.raisedFaults.clear(word, at);
  for (const word of raise) model.raisedFaults.raise(word, at);
  return ok({ serial: inverter.serial, active: model.raisedFaults.active() });
}
