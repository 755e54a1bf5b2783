import type { CallOptions, EvCommandId } from "../cloud/index.js";
import type { ControlReads } from "../sources/index.js";
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
  options: CallOptions,
) => Promise<EvReading>;

/** The commands whose effect Get Command Data shows; the others are reported as the charger answered. */
const VERIFIERS: Partial<Record<EvCommandId, Verifier>> = {
  "change-mode": async (reads, uuid, sent, options) => {
    const data = await reads.cloudOnly.evChargers.commandData(uuid, "change-mode", options);
    return { matches: data.active === sent.mode, value: data.active };
  },
  "adjust-charge-power-limit": async (reads, uuid, sent, options) => {
    const data = await reads.cloudOnly.evChargers.commandData(uuid, "adjust-charge-power-limit", options);
    // The limit is sent in amps; a charger that reports watts cannot be compared.
    const inAmps = data.unit === undefined || data.unit === null || data.unit.toUpperCase() === "A";
    return { matches: inAmps && sameValue(data.value, sent.limit), value: data.value };
  },
};

export function verifierFor(command: EvCommandId): Verifier | undefined {
  return VERIFIERS[command];
}
