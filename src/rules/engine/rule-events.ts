import { Observable, Subject } from "rxjs";
import type { Logger } from "../../log/log.js";
import type { RuleEvent } from "../../rules-runtime/index.js";

/** A rule event before the engine stamps its time. */
export type RuleEventInput = RuleEvent extends infer E ? (E extends RuleEvent ? Omit<E, "at"> : never) : never;

/** At most this many events from before anyone listened are kept for the first listeners. */
const EARLY_EVENTS = 100;

/** What the rules do, logged and published; what happened before anyone listened is replayed. */
export class RuleEvents {
  private readonly subject = new Subject<RuleEvent>();
  /**
   * What the rules did before anyone listened (a window opened, a restore after a restart, inside
   * start()): replayed to each subscriber, so that Home Assistant hears of it once it follows.
   */
  private readonly early: RuleEvent[] = [];
  private listened = false;
  readonly events$: Observable<RuleEvent> = new Observable<RuleEvent>((subscriber) => {
    this.listened = true;
    for (const event of this.early) subscriber.next(event);
    return this.subject.subscribe(subscriber);
  });

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  emit(event: RuleEventInput): void {
    const full = { ...event, at: this.now() } as RuleEvent;
    const log = event.type === "failure" || (event.type === "restore" && !event.ok) ? "warn" : "info";
    this.logger[log]({ event: full }, `rule ${event.rule}: ${event.message}`);
    if (!this.listened) {
      this.early.push(full);
      if (this.early.length > EARLY_EVENTS) this.early.shift();
    }
    this.subject.next(full);
  }

  complete(): void {
    this.subject.complete();
  }
}
