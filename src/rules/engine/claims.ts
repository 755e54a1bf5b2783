/**
 * Which rule holds each control until when: the higher priority wins a control both want, and
 * between equal priorities the rule whose wins_over names the other (control-overlaps.ts).
 */
export interface Claim {
  readonly rule: string;
  readonly priority: number;
  /** The rules of equal priority this one wins over. */
  readonly winsOver: readonly string[];
  /** Epoch ms; the claim lapses then (the holder's window end). */
  readonly until: number;
}

export type ClaimAnswer =
  | { readonly granted: true; readonly displaced?: Claim }
  | { readonly granted: false; readonly holder: Claim };

export class Claims {
  private readonly held = new Map<string, Claim>();

  /** Asks for a control; an equal priority takes it from the holder only when it wins over the holder by name. */
  request(control: string, claim: Claim, now: number): ClaimAnswer {
    const holder = this.active(control, now);
    if (!holder || holder.rule === claim.rule) {
      this.held.set(control, claim);
      return { granted: true };
    }
    if (
      claim.priority > holder.priority ||
      (claim.priority === holder.priority && claim.winsOver.includes(holder.rule))
    ) {
      this.held.set(control, claim);
      return { granted: true, displaced: holder };
    }
    return { granted: false, holder };
  }

  /** The claim on a control by a rule other than `rule`, if one is active. */
  heldByOther(control: string, rule: string, now: number): Claim | undefined {
    const holder = this.active(control, now);
    return holder && holder.rule !== rule ? holder : undefined;
  }

  release(rule: string): void {
    for (const [control, claim] of this.held) if (claim.rule === rule) this.held.delete(control);
  }

  private active(control: string, now: number): Claim | undefined {
    const claim = this.held.get(control);
    if (claim && claim.until <= now) {
      this.held.delete(control);
      return undefined;
    }
    return claim;
  }
}
