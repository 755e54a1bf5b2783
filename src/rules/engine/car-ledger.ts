const KEEP_MS = 2 * 86_400_000;

interface Register {
  readonly at: number;
  readonly kwh: number;
}

/**
 * The energy the charger delivered: from its import register (Energy.Active.Import.Register)
 * where it reports one, and between readings (before the first one of a period, after the last)
 * estimated from its status, the time it reported Charging times the power the plan charges at.
 */
export class CarLedger {
  private readonly spans: { start: number; end: number }[] = [];
  private since: number | undefined;
  private readonly registers: Register[] = [];

  /** The charger's status at `at`. */
  see(status: string, at: number): void {
    if (status === "Charging") {
      this.since ??= at;
      return;
    }
    if (this.since !== undefined) this.spans.push({ start: this.since, end: at });
    this.since = undefined;
    // Two days back is more than any `by` can ask for.
    while ((this.spans[0]?.end ?? Number.POSITIVE_INFINITY) < at - KEEP_MS) this.spans.shift();
  }

  /** The charger's import register, kWh, read at `at`. */
  meter(kwh: number, at: number): void {
    const last = this.registers.at(-1);
    if (last && at <= last.at) return;
    this.registers.push({ at, kwh });
    while ((this.registers[0]?.at ?? Number.POSITIVE_INFINITY) < at - KEEP_MS) this.registers.shift();
  }

  /**
   * kWh delivered between `from` and `now`: the register's rise between its first reading in the
   * period and its last, with the estimate at `kw` before and after them. A register that went
   * down (a charger replaced or reset) is not read: the estimate covers the whole period.
   */
  deliveredKwh(from: number, now: number, kw: number): number {
    const first = this.registers.find((reading) => reading.at >= from && reading.at <= now);
    const last = this.registers.findLast((reading) => reading.at >= from && reading.at <= now);
    if (!first || !last || last.kwh < first.kwh || this.wentDown(first, last)) return this.estimatedKwh(from, now, kw);
    return this.estimatedKwh(from, first.at, kw) + (last.kwh - first.kwh) + this.estimatedKwh(last.at, now, kw);
  }

  private wentDown(first: Register, last: Register): boolean {
    let before = first.kwh;
    for (const reading of this.registers) {
      if (reading.at <= first.at || reading.at > last.at) continue;
      if (reading.kwh < before) return true;
      before = reading.kwh;
    }
    return false;
  }

  private estimatedKwh(from: number, now: number, kw: number): number {
    if (now <= from) return 0;
    const spans = this.since === undefined ? this.spans : [...this.spans, { start: this.since, end: now }];
    let ms = 0;
    for (const span of spans) ms += Math.max(0, Math.min(span.end, now) - Math.max(span.start, from));
    return (ms / 3_600_000) * kw;
  }
}
