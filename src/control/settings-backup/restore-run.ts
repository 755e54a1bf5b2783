import type { ChangeOutcome, Requester } from "../change.js";
import type { ControlGate } from "../gate.js";
import type { RestoreLine, RestorePlan } from "./restore-plan.js";

/** Who a restore's changes are audited as. */
export const RESTORE_REQUESTER: Requester = {
  via: "settings-restore",
  name: "energy2mqtt settings restore",
  // Putting a house back after a reset is a restore, as a snapshot's is: the daily budget does not stop it half-way.
  restore: true,
};

export interface RestoreResult {
  readonly line: Extract<RestoreLine, { kind: "write" }>;
  readonly outcome: ChangeOutcome;
}

/** The plan's writes through the gate, one at a time (each read back and audited by the gate); nothing else is sent. */
export async function runRestore(gate: Pick<ControlGate, "apply">, plan: RestorePlan): Promise<RestoreResult[]> {
  const results: RestoreResult[] = [];
  for (const line of plan.lines) {
    if (line.kind !== "write") continue;
    const outcome = await gate.apply(
      { kind: "setting", serial: plan.serial, settingId: line.id, value: line.file },
      RESTORE_REQUESTER,
    );
    results.push({ line, outcome });
  }
  return results;
}
