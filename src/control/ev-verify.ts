import type { ControlCall, ControlReads } from "../sources/index.js";
import type { ChargerCommandId } from "../vocabulary/index.js";
import { sameValue } from "./same-value.js";

export interface EvReading {
  readonly matches: boolean;
  /** What the charger holds now, for the message and the outcome. */
  readonly value: unknown;
}

type Verifier = (
  reads: ControlReads,
  uuid: string,
  sent: Readonly<Record<string, unknown>>,
  call: ControlCall,
) => Promise<EvReading>;

/** The commands whose effect reading back shows; the others are reported as the charger answered. */
const VERIFIERS: Partial<Record<ChargerCommandId, Verifier>> = {
  "change-mode": async (reads, uuid, sent, call) => {
    const modes = await reads.cloudOnly.evChargers.read(uuid, "change-mode", call);
    return { matches: modes.active === sent.mode, value: modes.active };
  },
  "adjust-charge-power-limit": async (reads, uuid, sent, call) => {
    const limit = await reads.cloudOnly.evChargers.read(uuid, "adjust-charge-power-limit", call);
    // The limit is sent in amps; a charger that reports watts cannot be compared.
    const inAmps = limit.unit === undefined || limit.unit === null || limit.unit.toUpperCase() === "A";
    return { matches: inAmps && sameValue(limit.value, sent.limit), value: limit.value };
  },
};

export function verifierFor(command: ChargerCommandId): Verifier | undefined {
  return VERIFIERS[command];
}
