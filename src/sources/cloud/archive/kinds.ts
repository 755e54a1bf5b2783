import type { HistoryKind } from "../../../store/index.js";

/** The history kinds the archive copies from the cloud, in the order it copies them. */
export const ARCHIVE_KINDS = [
  "inverter.point",
  "flow.half_hour",
  "flow.day",
  "inverter.event",
  "ev.session",
  "ev.meter",
  "smart.data",
] as const satisfies readonly HistoryKind[];

export type ArchiveKind = (typeof ARCHIVE_KINDS)[number];

export function isArchiveKind(text: string): text is ArchiveKind {
  return (ARCHIVE_KINDS as readonly string[]).includes(text);
}

/** Kinds whose every day normally holds records, so an empty day is worth reporting as missing. */
export const KINDS_WITH_CADENCE: ReadonlySet<ArchiveKind> = new Set([
  "inverter.point",
  "flow.half_hour",
  "flow.day",
  "ev.meter",
  "smart.data",
]);

/** Which device list a kind belongs to. */
export function targetOf(kind: ArchiveKind): "inverter" | "ev_charger" | "smart_device" {
  if (kind === "ev.session" || kind === "ev.meter") return "ev_charger";
  if (kind === "smart.data") return "smart_device";
  return "inverter";
}
