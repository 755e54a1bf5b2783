import { REFUSED } from "./errors.js";

/** Which of the two causes of a 401/403 the daemon's history with this token points to. */
export type RefusalCause = "subscription" | "token";

export interface Refusal {
  readonly status: number;
  readonly likelier: RefusalCause;
  /** What to tell the user: the refusal, the likelier cause and why, and what to do. */
  readonly text: string;
}

/** What one refusal says, given whether this token worked before. */
export function refusalText(status: number, likelier: RefusalCause): string {
  return likelier === "subscription"
    ? `The cloud ${REFUSED} (${status}). This token worked before and now every endpoint refuses it: a lapsed subscription is likelier; check it in the vendor's portal.`
    : `The cloud ${REFUSED} (${status}). This token was refused the first time it was used: a wrong or mistyped token is likelier; create one in the portal under Account Settings > API tokens and set cloud.token.`;
}

/**
 * Tells from the requests' answers whether the cloud refuses this daemon, and why that is
 * likelier: a token that worked before and is now refused on every endpoint points to the
 * subscription, one refused from its first request to the token. A 401 is a refusal at once;
 * a 403 only when two endpoints give it with no success between (one 403 alone is a scope the
 * token lacks, which the listings tolerate). A success clears it.
 */
export class RefusalWatch {
  private worked: boolean;
  private readonly refusedBy = new Set<string>();
  private lastStatus = 0;
  private unauthenticated = false;

  /** `workedBefore`: this token had a success in an earlier run (remembered by the caller). */
  constructor(workedBefore = false) {
    this.worked = workedBefore;
  }

  /** One request's answer: its endpoint's name and HTTP status (undefined when nothing answered). */
  record(endpoint: string, status: number | undefined): void {
    if (status === undefined) return;
    if (status >= 200 && status < 300) {
      this.worked = true;
      this.refusedBy.clear();
      this.unauthenticated = false;
      return;
    }
    if (status !== 401 && status !== 403) return;
    this.refusedBy.add(endpoint);
    this.lastStatus = status;
    if (status === 401) this.unauthenticated = true;
  }

  /** Whether this token has had a success, in this run or one before. */
  get hasWorked(): boolean {
    return this.worked;
  }

  /** The refusal in force, or undefined while the cloud takes the token. */
  current(): Refusal | undefined {
    if (!this.unauthenticated && this.refusedBy.size < 2) return undefined;
    const likelier: RefusalCause = this.worked ? "subscription" : "token";
    return { status: this.lastStatus, likelier, text: refusalText(this.lastStatus, likelier) };
  }
}
