import type { Logger } from "../../log/log.js";
import type { ControlRestore, SavedValue } from "../../store/index.js";
import type { ChangeRequest } from "../change.js";
import type { SideEffects } from "../side-effects.js";
import type { DeviceReads } from "./device-reads.js";
import { mergeFields, recordBefore, savedControl, wroteBy } from "./saved-values.js";

/**
 * What to put back after a rule's changes, one entry per control: the value it holds now (read
 * before the change) and the value the change writes. A control already in `kept` (an earlier
 * change of the same window) keeps its value from before that first change; what is written now
 * is what the restore then looks for. Never a whole-inverter snapshot: its restore would put back
 * controls the rule never changed. A control the change writes as a side effect (control/side-effects.ts:
 * timed-export switching Eco mode off) is saved as if the rule wrote it, ahead of its cause: the
 * restore goes last to first, so it is put back after its cause is.
 */
export async function prepareRestore(
  reads: DeviceReads,
  requests: readonly ChangeRequest[],
  kept: readonly ControlRestore[],
  sideEffects: SideEffects,
  logger: Logger,
): Promise<ControlRestore[]> {
  const entries = [...kept];
  for (const request of requests) {
    for (const effect of sideEffects(request)) {
      const cause = entries.findIndex((entry) => savedControl(entry.before) === savedControl(wroteBy(request)));
      const saved = await save(reads, entries, effect.request, cause < 0 ? entries.length : cause);
      if (saved) logger.debug({ control: savedControl(wroteBy(effect.request)), why: effect.why }, "side effect saved");
    }
    if (!(await save(reads, entries, request, entries.length)))
      logger.warn(
        { control: savedControl(wroteBy(request)) },
        "this change cannot be put back after the window: it is left as is",
      );
  }
  return entries;
}

/**
 * Adds what `request` writes to `entries`: merged into its control's entry when there is one,
 * else a new entry at `at` with the value read now. False when the value cannot be saved.
 */
async function save(
  reads: DeviceReads,
  entries: ControlRestore[],
  request: ChangeRequest,
  at: number,
): Promise<boolean> {
  const wrote = wroteBy(request);
  const index = entries.findIndex((entry) => savedControl(entry.before) === savedControl(wrote));
  const known = entries[index];
  if (known) {
    entries[index] = { ...known, wrote: merged(known.wrote, wrote) };
    if (!coversFields(known.before, wrote)) {
      // A preset field the first change did not write: add what it holds now.
      const more = await recordBefore(reads, request);
      if (more) entries[index] = { before: merged(more, known.before), wrote: merged(known.wrote, wrote) };
    }
    return true;
  }
  const before = await recordBefore(reads, request);
  if (!before) return false;
  entries.splice(at, 0, { before, wrote });
  return true;
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
