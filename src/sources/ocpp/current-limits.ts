/**
 * The current limits the daemon set on each charge point over OCPP, which has no way to read a
 * limit back: the one for every session (TxDefaultProfile) and the running session's own
 * (TxProfile), which ends with its transaction. Kept in memory: after a restart nothing is known
 * until the daemon sets a limit again.
 */
export class CurrentLimits {
  private readonly everySession = new Map<string, number>();
  private readonly session = new Map<string, { readonly transactionId: number; readonly amps: number }>();

  setForEverySession(id: string, amps: number): void {
    this.everySession.set(id, amps);
  }

  setForSession(id: string, transactionId: number, amps: number): void {
    this.session.set(id, { transactionId, amps });
  }

  /** The limit for a new session: the one set for every session. */
  forNewSession(id: string): number | undefined {
    return this.everySession.get(id);
  }

  /** The limit in force: the open transaction's own while it runs, else the one for every session. */
  inForce(id: string, openTransaction: number | undefined): number | undefined {
    const own = this.session.get(id);
    if (own && own.transactionId === openTransaction) return own.amps;
    return this.everySession.get(id);
  }
}
