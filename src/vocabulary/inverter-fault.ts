/**
 * A fault an inverter reported (the vendor calls them events), whichever path read it. The
 * history keeps its start and end as the device wrote them (an inverter.event row's data), so
 * they travel with it; Home Assistant shows its start as an instant.
 */
export interface InverterFault {
  /** Its name as the inverter gives it, e.g. "Grid lost": a row's key. */
  readonly name: string;
  /** When it started, an ISO instant (`2026-11-16T12:00:00Z`); null when the path's time carries no zone. */
  readonly startedAt: string | null;
  /** When it started, epoch ms read in the service's zone (the row's time); undefined when unreadable. */
  readonly startMs: number | undefined;
  /** Its start and end as the device wrote them; the end is null while the fault lasts. */
  readonly written: { readonly start: string; readonly end: string | null };
}
