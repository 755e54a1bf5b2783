import { z } from "zod";

/** What each rule did in a rules replay (rules-replay.ts): told back from its worker thread. */
export const ruleReplayedSchema = z.strictObject({
  name: z.string(),
  /** Changes that reached the inverter model (presets, settings, snapshots put back). */
  changes: z.number().int().min(0),
  /** Windows the rule opened. */
  windows: z.number().int().min(0),
  /** What it sent that the replay does not carry out. */
  notReplayed: z.array(z.enum(["charger commands", "notifications"])),
});
export type RuleReplayed = z.infer<typeof ruleReplayedSchema>;
export type NotReplayedKind = RuleReplayed["notReplayed"][number];

export const rulesReplayReportSchema = z.strictObject({
  rules: z.array(ruleReplayedSchema),
  /** The engine's failures and errors as it told them (an action the inverter's rules refused, ...). */
  problems: z.array(z.string()),
});
export type RulesReplayReport = z.infer<typeof rulesReplayReportSchema>;
