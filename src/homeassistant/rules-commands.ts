import { z } from "zod";
import { quotePayload } from "../mqtt/index.js";
import { buttonKey, switchKey } from "./rules-discovery.js";

/** What Home Assistant asked of a rule, read from `<base>/rules/set/<entity>`. */
export type RulesCommand =
  | { readonly kind: "enable"; readonly rule: string; readonly enabled: boolean }
  | { readonly kind: "run"; readonly rule: string };

const switchPayload = z
  .string()
  .trim()
  .pipe(z.enum(["ON", "OFF"], { error: (issue) => `expected ON or OFF, got ${quotePayload(String(issue.input))}` }));
const buttonPayload = z
  .string()
  .trim()
  .pipe(z.literal("PRESS", { error: (issue) => `expected PRESS, got ${quotePayload(String(issue.input))}` }));

const problem = (error: z.ZodError): string => error.issues.map((issue) => issue.message).join("; ");

/** Reads a command for the rules device; a bad entity or payload comes back as a message to publish. */
export function parseRulesCommand(
  entity: string,
  payload: string,
  rules: readonly string[],
): { ok: true; command: RulesCommand } | { ok: false; message: string } {
  const enabledPrefix = switchKey("");
  const runPrefix = buttonKey("");
  const rule = entity.startsWith(enabledPrefix)
    ? entity.slice(enabledPrefix.length)
    : entity.startsWith(runPrefix)
      ? entity.slice(runPrefix.length)
      : undefined;
  if (rule === undefined) return { ok: false, message: `no rules entity "${entity}"` };
  if (!rules.includes(rule)) {
    return { ok: false, message: `no rule named "${rule}"; the rules are: ${rules.join(", ") || "none"}` };
  }
  if (entity.startsWith(enabledPrefix)) {
    const parsed = switchPayload.safeParse(payload);
    if (!parsed.success) return { ok: false, message: problem(parsed.error) };
    return { ok: true, command: { kind: "enable", rule, enabled: parsed.data === "ON" } };
  }
  const parsed = buttonPayload.safeParse(payload);
  if (!parsed.success) return { ok: false, message: problem(parsed.error) };
  return { ok: true, command: { kind: "run", rule } };
}
