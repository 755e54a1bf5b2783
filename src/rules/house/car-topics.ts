import { z } from "zod";
import type { Logger } from "../../log/log.js";
import type { Rule } from "../file/schema.js";
import { carRules } from "../planners/car-windows.js";

/** A number as Home Assistant publishes a sensor's state: "42", "42.5", or a JSON number; never "unavailable". */
const numberPayload = z
  .string()
  .trim()
  .regex(/^-?\d+(\.\d+)?$/, "expected a number, e.g. 42.5")
  .transform(Number)
  .pipe(z.number().finite().min(0).max(1000));

/** The topics the optimise rules' cars read their target and SoC from. */
export function carTopicsOf(rules: readonly Rule[]): string[] {
  const topics = new Set<string>();
  for (const { spec } of carRules(rules)) {
    if (spec.target_topic) topics.add(spec.target_topic);
    if (spec.soc_topic) topics.add(spec.soc_topic);
  }
  return [...topics];
}

/**
 * The last good number on each of the cars' topics. A payload that is not a number (Home
 * Assistant's "unavailable", a typo in an automation) is logged and ignored: the last good
 * value stays, so a sensor dropping out does not cancel the car's plan.
 */
export class CarTopics {
  private readonly values = new Map<string, number>();

  constructor(
    private readonly topics: readonly string[],
    private readonly logger: Logger,
  ) {}

  /** Takes a message; false when the topic is not one of the cars' or the payload was refused. */
  accept(topic: string, payload: string): boolean {
    if (!this.topics.includes(topic)) return false;
    const parsed = numberPayload.safeParse(payload);
    if (!parsed.success) {
      const kept = this.values.get(topic);
      this.logger.warn(
        { topic, payload: payload.slice(0, 64), kept: kept ?? null },
        `car target on ${topic} ignored: ${parsed.error.issues[0]?.message ?? "not a number"}; ${kept === undefined ? "no good value yet" : `keeping ${kept}`}`,
      );
      return false;
    }
    this.values.set(topic, parsed.data);
    return true;
  }

  value(topic: string): number | undefined {
    return this.values.get(topic);
  }
}
