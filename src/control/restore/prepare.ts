import type { Logger } from "../../log/log.js";
import type { ControlRestore, SavedValue } from "../../store/index.js";
import type { ChangeRequest } from "../change.js";
import type { DeviceReads } from "./device-reads.js";
import { mergeFields, recordBefore, savedControl, wroteBy } from "./saved-values.js";

/**
 * What to put back after a rule's changes, one entry per control: the value it holds now (read
 * before the change) and the value the change writes. A control already in `kept` (an earlier
 * change of the same window) keeps its value from before that first change; what is written now
 * is what the restore then looks for. Never a whole-inverter snapshot: its restore would put back
 * controls the rule never changed.
 */
export async function prepareRestore(
  reads: DeviceReads,
  requests: readonly ChangeRequest[],
  kept: readonly ControlRestore[],
  logger: Logger,
): Promise<ControlRestore[]> {
  const controls = new Map(kept.map((entry) => [savedControl(entry.before), entry]));
  for (const request of requests) {
    const wrote = wroteBy(request);
    if (!wrote) continue;
    const key = savedControl(wrote);
    const known = controls.get(key);
    if (known) {
      controls.set(key, { ...known, wrote: merged(known.wrote, wrote) });
      if (!coversFields(known.before, wrote)) {
        // A preset field the first change did not write: add what it holds now.
        const more = await recordBefore(reads, request);
        if (more) controls.set(key, { before: merged(more, known.before), wrote: merged(known.wrote, wrote) });
      }
      continue;
    }
    const before = await recordBefore(reads, request);
    if (before) controls.set(key, { before, wrote });
    else logger.warn({ control: key }, "this change cannot be put back after the window: it is left as is");
  }
  return [...controls.values()];
}

/** `later` over `earlier` (a preset's fields merged, slot by slot); either alone when the other is missing. */
function merged(earlier: SavedValue | undefined, later: SavedValue): SavedValue {
  if (earlier?.kind === "preset" && later.kind === "preset")
    return { ...later, fields: mergeFields(earlier.fields, later.fields) };
  return later;
}

function coversFields(before: SavedValue, wrote: SavedValue): boolean {
  if (before.kind !== "preset" || wrote.kind !== "preset") return true;
  return Object.keys(wrote.fields).every((key) => key in before.fields);
}
