import type { Subscription } from "rxjs";
import type { Logger } from "../log/log.js";
import type { Prices, RuleEvent, RulesRuntime } from "../rules-runtime/index.js";
import type { Origin } from "./discovery.js";
import type { RulesClock } from "./rules-clock.js";
import { answerRulesCommand } from "./rules-command-answer.js";
import {
  type RulesTopics,
  ruleOfDiscoveryTopic,
  rulesDiscoveryMessages,
  rulesRemovalMessages,
  rulesTopics,
} from "./rules-discovery.js";
import { rulesState } from "./rules-state.js";
import type { Topics } from "./topics.js";

export interface RulesEntitiesOptions {
  readonly topics: Topics;
  readonly origin: Origin;
  /** Publish discovery configs (homeassistant.discovery). */
  readonly discovery: boolean;
  readonly logger: Logger;
  /** The bridge's publish: logs failures, never throws. */
  readonly send: (topic: string, payload: string, retain: boolean) => Promise<void>;
  /** The daemon's clock: the prices and today's cost are those of its now, not the wall's. */
  readonly clock: RulesClock;
  /**
   * Whether the bridge has announced itself (after the devices' first round of reads). Until
   * then nothing is published: the announcement publishes everything once, so a runtime
   * attached before it would otherwise publish the same configs twice. Left out: always.
   */
  readonly announced?: () => boolean;
}

export interface AttachRulesOptions {
  /** Tests drive time here; by default the bridge's clock. */
  readonly clock?: RulesClock;
}

/** Prices change on zone and half-hour boundaries: a look every minute catches them. */
const TICK_MS = 60_000;
const HALF_HOUR_MS = 30 * 60_000;

/**
 * The rules in Home Assistant: a switch and a button per rule, the tariff sensors and today's
 * cost, commands answered on `<base>/rules/result`, and every rule event on `<base>/rules/event`.
 * Lives as long as the bridge; a runtime is attached (and replaced when rules are reloaded).
 */
export class RulesEntities {
  private readonly own: RulesTopics;
  private runtime: RulesRuntime | undefined;
  /** A rules file is configured and its runtime is on its way: commands meanwhile are told to wait. */
  private starting = false;
  private events: Subscription | undefined;
  private stopTicker: (() => void) | undefined;
  private clock: RulesClock;
  /** Rules whose switch and button are published. */
  private announced: readonly string[] = [];
  private announcedCurrency: string | undefined;
  /** Rules with retained configs from an earlier run, seen before a runtime was attached. */
  private readonly seenRetained = new Set<string>();
  private publishedState: string | undefined;
  private publishedSlot: number | undefined;
  private costOnline: boolean | undefined;
  /** Refreshes one after the other, so that an older state never overwrites a newer one. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: RulesEntitiesOptions) {
    this.own = rulesTopics(options.topics);
    this.clock = options.clock;
  }

  /** Topics the rules' feature subscribes to: their commands, and their retained configs (to find stale ones). */
  get subscriptions(): readonly string[] {
    return [`${this.own.commandPrefix}+`, ...(this.options.discovery ? this.own.discoveryWildcards : [])];
  }

  handles(topic: string): boolean {
    return topic.startsWith(this.own.commandPrefix) || ruleOfDiscoveryTopic(topic, this.options.topics) !== undefined;
  }

  /**
   * Whether rules are on their way (a rules file is configured and they are not attached yet):
   * a command meanwhile is answered "starting", not "no rules are loaded".
   */
  expect(starting: boolean): void {
    this.starting = starting;
  }

  async attach(runtime: RulesRuntime, options: AttachRulesOptions): Promise<void> {
    this.stop();
    this.starting = false;
    this.runtime = runtime;
    this.clock = options.clock ?? this.options.clock;
    this.events = runtime.events$.subscribe({
      next: (event) => void this.onEvent(event),
      error: (error: unknown) => this.options.logger.error({ err: error }, "the rules' event stream failed"),
    });
    this.stopTicker = this.clock.every(TICK_MS, () => this.refresh(false));
    // Not a resend: configs already announced for the same rules are not sent twice (an attach
    // that comes after the bridge's announcement would otherwise repeat them all).
    await this.publishAll(false);
  }

  /** Stops following the runtime (the bridge is stopping or another runtime comes). */
  stop(): void {
    this.events?.unsubscribe();
    this.events = undefined;
    this.stopTicker?.();
    this.stopTicker = undefined;
    this.runtime = undefined;
  }

  /**
   * Discovery, availability and state again: after (re)connecting, and when Home Assistant comes
   * online (`resend`: every config again). At the first announcement only what was not sent yet:
   * a rule event that came between the announcement and this call may have sent the configs, and
   * the same configs twice are a duplicate Home Assistant ignores.
   */
  async publishAll(resend = true): Promise<void> {
    if (!this.runtime || !this.announcedYet()) return;
    this.costOnline = undefined;
    await this.options.send(this.own.availability, "online", true);
    await this.refresh(resend);
  }

  async onMessage(topic: string, payload: string): Promise<void> {
    const retained = ruleOfDiscoveryTopic(topic, this.options.topics);
    if (retained !== undefined) {
      if (payload !== "") this.noteRetained(retained);
      return;
    }
    const reached = await answerRulesCommand(topic.slice(this.own.commandPrefix.length), payload, {
      runtime: this.runtime,
      starting: this.starting,
      logger: this.options.logger,
      answer: (body) => this.options.send(this.own.result, JSON.stringify(body), false),
    });
    if (reached) await this.refresh(false);
  }

  /** The rules changed outside MQTT (the web page): the state again, with the switches as they are. */
  refreshState(): Promise<void> {
    return this.refresh(false);
  }

  private noteRetained(rule: string): void {
    if (!this.runtime) {
      this.seenRetained.add(rule);
      return;
    }
    if (this.runtime.list().some((status) => status.name === rule)) return;
    this.options.logger.info({ rule }, "removing the Home Assistant entities of a rule that is gone");
    for (const message of rulesRemovalMessages([rule], this.options.topics)) {
      void this.options.send(message.topic, message.payload, true);
    }
  }

  private async onEvent(event: RuleEvent): Promise<void> {
    if (event.type === "conflict") {
      const { rule, winner, loser, control, action } = event;
      this.options.logger.warn({ rule, winner, loser, control, action }, `rules conflict: ${event.message}`);
    }
    await this.options.send(this.own.event, JSON.stringify(event), false);
    await this.refresh(false);
  }

  private refresh(force: boolean): Promise<void> {
    const next = this.queue.then(() => this.publishState(force));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private pricesAt(runtime: RulesRuntime, at?: number): Prices | undefined {
    try {
      return runtime.prices(at);
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message }, "the rules could not say the prices");
      return undefined;
    }
  }

  private announcedYet(): boolean {
    return this.options.announced?.() ?? true;
  }

  private async publishState(force: boolean): Promise<void> {
    const { runtime } = this;
    if (!runtime || !this.announcedYet()) return;
    const now = this.clock.now();
    const prices = this.pricesAt(runtime, now);
    if (!prices) return;
    const rules = runtime.list();
    await this.announce(
      rules.map((rule) => rule.name),
      prices.currency,
      force,
    );
    const cost = runtime.todayCost(now);
    const costOnline = cost !== undefined && prices.import !== undefined;
    if (costOnline !== this.costOnline) {
      this.costOnline = costOnline;
      await this.options.send(this.own.costAvailability, costOnline ? "online" : "offline", true);
    }
    const savings = runtime.savings?.(now);
    const text = JSON.stringify(rulesState({ rules, prices, window: runtime.nextCheapWindow(), cost, savings }));
    const slot = Math.floor(now / HALF_HOUR_MS);
    if (!force && text === this.publishedState && slot === this.publishedSlot) return;
    this.publishedState = text;
    this.publishedSlot = slot;
    await this.options.send(this.own.state, text, true);
  }

  /** Configs for the rules there are; removals for those that went away. */
  private async announce(rules: readonly string[], currency: string, force: boolean): Promise<void> {
    const gone = [...new Set([...this.announced, ...this.seenRetained])].filter((rule) => !rules.includes(rule));
    const same =
      currency === this.announcedCurrency &&
      rules.length === this.announced.length &&
      rules.every((rule, at) => this.announced[at] === rule);
    this.announced = rules;
    this.announcedCurrency = currency;
    this.seenRetained.clear();
    if (!this.options.discovery || (same && gone.length === 0 && !force)) return;
    const { topics, origin } = this.options;
    if (gone.length > 0)
      this.options.logger.info({ rules: gone }, "removing the Home Assistant entities of rules that are gone");
    await Promise.all([
      ...rulesRemovalMessages(gone, topics).map((m) => this.options.send(m.topic, m.payload, true)),
      ...rulesDiscoveryMessages(rules, { topics, origin, currency }).map((m) =>
        this.options.send(m.topic, JSON.stringify(m.payload), true),
      ),
    ]);
  }
}
