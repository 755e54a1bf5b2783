/** `YYYY-MM-DDThh:mm:ssZ`: the service refuses fractions of a second in query datetimes. */
export function isoSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** Epoch ms of a service timestamp, or NaN; a local datetime without a zone is read as UTC. */
export function timestampMs(text: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text) || /([zZ]|[+-]\d{2}:?\d{2})$/.test(text)) return Date.parse(text);
  return Date.parse(`${text.replace(" ", "T")}Z`);
}

/** The item with the latest timestamp; ties keep the first. */
export function newest<T>(items: Iterable<T>, timeOf: (item: T) => string): T | undefined {
  let best: T | undefined;
  let bestMs = Number.NEGATIVE_INFINITY;
  for (const item of items) {
    const ms = timestampMs(timeOf(item));
    if (best === undefined || ms > bestMs) {
      best = item;
      bestMs = ms;
    }
  }
  return best;
}
