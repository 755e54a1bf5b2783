import type { Fetched } from "../bus/event-bus.js";
import { eventRecords, meterRecords, pointRecords, sessionRecords, smartRecords } from "../sources/cloud/index.js";
import type { HistoryRecord } from "../store/index.js";
import { momentRecords } from "./records.js";

/** What a poll fetched, as history rows in the account's time zone (an EV charger's status has none). */
export function fetchedRecords(fetched: Fetched, timeZone: string): HistoryRecord[] {
  switch (fetched.kind) {
    case "inverter.live":
      return momentRecords("inverter.live", fetched.serial, fetched.measuredAt, fetched.values);
    case "inverter.points":
      return pointRecords(fetched.serial, fetched.points, timeZone);
    case "inverter.events":
      return eventRecords(
        fetched.serial,
        fetched.ended ? [...fetched.active, fetched.ended] : fetched.active,
        timeZone,
      );
    case "ems":
      return momentRecords("ems", fetched.serial, fetched.measuredAt, fetched.values);
    case "ev.meter":
      return meterRecords(fetched.uuid, fetched.records, timeZone);
    case "ev.sessions":
      return sessionRecords(fetched.uuid, fetched.sessions, timeZone);
    case "smart.data":
      return smartRecords(fetched.uuid, fetched.points, timeZone);
    case "ev.status":
      return [];
  }
}
