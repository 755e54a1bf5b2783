export { type Clock, every, later, systemClock } from "./clock.js";
export { duration, durationBetween, durationKind, formatDuration } from "./duration.js";
export { isoInstant } from "./iso-instant.js";
export { addDays, dateOfDayNumber, dayEndMs, dayOf, dayStartMs, daysBetween, isDay } from "./local-days.js";
export { clockMinutes, dayNumber, localDateTimeToMs, utcMsOfLocal } from "./local-instant.js";
export {
  HOUR_MS,
  halfHourStarts,
  isTimeZone,
  localClockText,
  localDateTimeText,
  localDay,
  MINUTE_MS,
  nextLocalTime,
  parseClock,
  SLOT_MS,
  type WallClock,
  wallClock,
} from "./local-time.js";
export { isoSeconds, newest, timestampCandidates, timestampMs, zonedTimestamp } from "./service-time.js";
export { VirtualClock } from "./virtual-clock.js";
export { formatLocal, localMinuteOfDay } from "./wall-fields.js";
export { offsetMs } from "./zone-offset.js";
