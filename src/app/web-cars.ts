import type { LoadedRules } from "../rules/index.js";
import { carRules, carTargetIsSoc } from "../rules/index.js";
import type { CarState } from "../rules-runtime/index.js";
import type { CarTarget } from "../web/index.js";

/**
 * The Now page's car targets: each optimise rule's car, its deadline, and its target (the rule's
 * own, or the last number on its target topic), with the car's SoC from its soc_topic.
 */
export function carTargets(
  rulesFile: LoadedRules | undefined,
  carState: () => CarState | undefined,
): () => readonly CarTarget[] {
  const cars = rulesFile ? carRules(rulesFile.rules.rules) : [];
  return () => {
    const topics = carState()?.topics ?? {};
    const topic = (name: string | undefined): number | null => (name === undefined ? null : (topics[name] ?? null));
    return cars.map(({ spec }) => {
      const fromTopic = topic(spec.target_topic);
      const bySoc = carTargetIsSoc(spec);
      return {
        charger: spec.charger,
        by: spec.by,
        soc: bySoc ? (fromTopic ?? spec.soc ?? null) : null,
        kwh: bySoc ? null : (fromTopic ?? spec.kwh ?? null),
        carSoc: topic(spec.soc_topic),
      };
    });
  };
}
