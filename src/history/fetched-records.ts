import type { Fetched } from "../bus/event-bus.js";
import type { HistoryRecord } from "../store/index.js";
import { momentRecords } from "./records.js";
import { chargerMeterRows, chargerSessionRows, inverterFaultRows, inverterPointRows, smartDeviceRows } from "./rows.js";

/** What a poll fetched, as history rows (an EV charger's status has none). */
export function fetchedRecords(fetched: Fetched): HistoryRecord[] {
  switch (fetched.kind) {
    case "inverter.live":
      return momentRecords("inverter.live", fetched.serial, fetched.measuredAt, fetched.values);
    case "inverter.points":
      return inverterPointRows(fetched.serial, fetched.points);
    case "inverter.events":
      return inverterFaultRows(fetched.serial, fetched.ended ? [...fetched.active, fetched.ended] : fetched.active);
    case "ems":
      return momentRecords("ems", fetched.serial, fetched.measuredAt, fetched.values);
    case "ev.meter":
      return chargerMeterRows(fetched.uuid, fetched.records);
    case "ev.sessions":
      return chargerSessionRows(fetched.uuid, fetched.sessions);
    case "smart.data":
      return smartDeviceRows(fetched.uuid, fetched.points);
    case "ev.status":
      return [];
  }
}
