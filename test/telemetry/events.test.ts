import { afterEach, describe, expect, it, vi } from "vitest";
import { PageIterator } from "../../src/cloud/pagination.js";
import type { InverterFaultEvent } from "../../src/cloud/schemas/inverter-data.js";
import type { EventsFilter } from "../../src/cloud/sections/inverter-data.js";
import { inverterFaultOf } from "../../src/sources/cloud/history-items.js";
import { type Harness, HOUSE, ofKind, startHarness } from "./harness.js";

const OLD: InverterFaultEvent = { event: "Grid Voltage High", start_time: "2025-06-18T07:00:00Z", end_time: null };
const NEW: InverterFaultEvent = { event: "BMS Comms Lost", start_time: "2025-06-18T08:00:00Z", end_time: null };

/** The faults as the daemon words them; their times carry their zone, so any zone reads them alike. */
const fault = (event: InverterFaultEvent) => inverterFaultOf(event, "UTC");
const ENDED = fault({ ...NEW, end_time: "2025-06-18T09:02:00Z" });

function pageOf(events: InverterFaultEvent[]): PageIterator<InverterFaultEvent> {
  return new PageIterator(async () => ({ data: events }));
}

describe("fault events", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it("emits the uncleared faults newest first, and the latest one with its end once it clears", async () => {
    h = await startHarness();
    let uncleared = [OLD, NEW];
    const asked: EventsFilter[] = [];
    vi.spyOn(h.client.inverterData, "events").mockImplementation((serial, filter = {}) => {
      if (serial !== HOUSE) return pageOf([]);
      asked.push(filter);
      if (filter.cleared)
        return pageOf([
          { ...OLD, end_time: "2025-06-18T07:10:00Z" },
          { ...NEW, end_time: "2025-06-18T09:02:00Z" },
        ]);
      return pageOf(uncleared);
    });
    const { readings } = await h.start();
    const events = () => ofKind(readings, "inverter.events").filter((r) => r.serial === HOUSE);

    expect(events()).toEqual([expect.objectContaining({ active: [fault(NEW), fault(OLD)], latest: fault(NEW) })]);

    // Unchanged five minutes on: asked, not emitted.
    await h.advance(5 * 60_000);
    expect(asked).toEqual([{ cleared: false }, { cleared: false }]);
    expect(events()).toHaveLength(1);

    // The newer fault clears: one more request learns when.
    uncleared = [OLD];
    await h.advance(5 * 60_000);
    expect(asked.slice(2)).toEqual([{ cleared: false }, { start: "2025-06-18T08:00:00Z", cleared: true }]);
    expect(events().at(-1)).toEqual(expect.objectContaining({ active: [fault(OLD)], latest: ENDED }));

    uncleared = [];
    await h.advance(5 * 60_000);
    expect(events().at(-1)).toEqual(expect.objectContaining({ active: [], latest: ENDED }));
  });
});
