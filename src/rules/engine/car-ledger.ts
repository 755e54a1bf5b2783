/**
 * The energy the charger delivered, estimated from its status: the time it reported Charging
 * times the power the plan charges at. The daemon reads no meter of the car's session here, and
 * the charger's status is what the rules already follow.
 */
export class CarLedger {
  private readonly spans: { start: number; end: number }[] = [];
  private since: number | undefined;

  /** The charger's status at `at`. */
  see(status: string, at: number): void {
    if (status === "Charging") {
      this.since ??= at;
      return;
    }
    if (this.since !== undefined) this.spans.push({ start: this.since, end: at });
    this.since = undefined;
    // Two days back is more than any `by` can ask for.
    while ((this.spans[0]?.end ?? Number.POSITIVE_INFINITY) < at - 2 * 86_400_000) this.spans.shift();
  }

  /** kWh delivered between `from` and `now` at `kw`. */
  deliveredKwh(from: number, now: number, kw: number): number {
    const spans = this.since === undefined ? this.spans : [...this.spans, { start: this.since, end: now }];
    let ms = 0;
    for (const span of spans) ms += Math.max(0, Math.min(span.end, now) - Math.max(span.start, from));
    return (ms / 3_600_000) * kw;
  }
}
