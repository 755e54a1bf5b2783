import type { Rule } from "../file/schema.js";
import type { Claim, ClaimAnswer } from "./claims.js";
import type { RuleEvents } from "./rule-events.js";
import type { WindowBook } from "./window-book.js";

/**
 * Claims a control for a rule's window until `until`, as the rule's own actions and its import
 * guard both must: a claim another rule holds is reported as a conflict the rule lost, one that
 * takes the control from another rule as a conflict it won (the other puts its value back only
 * after this window). `action` names what the rule would send.
 */
export function claimControl(
  parts: { readonly book: WindowBook; readonly events: RuleEvents },
  rule: Rule,
  control: string,
  action: string,
  until: number,
  now: number,
): ClaimAnswer {
  const claim = { rule: rule.name, priority: rule.priority, winsOver: rule.wins_over, until };
  const answer = parts.book.claim(control, claim, now);
  const conflict = { type: "conflict", rule: rule.name, control, action } as const;
  if (!answer.granted) {
    const { holder } = answer;
    parts.events.emit({
      ...conflict,
      winner: holder.rule,
      loser: rule.name,
      message: `${action} not sent: rule ${holder.rule} (${rank(holder, claim)}) holds ${control}`,
    });
  } else if (answer.displaced) {
    const { displaced } = answer;
    parts.events.emit({
      ...conflict,
      winner: rule.name,
      loser: displaced.rule,
      message: `${action} overrides rule ${displaced.rule} on ${control} (${rank(claim, displaced)}); ${displaced.rule} puts its value back only after this window ends`,
    });
  }
  return answer;
}

/** Why `winner` beats `loser`, in words. */
function rank(winner: Claim, loser: Claim): string {
  return winner.priority === loser.priority
    ? `both priority ${winner.priority}, wins_over of ${winner.rule} names ${loser.rule}`
    : `priority ${winner.priority} over ${loser.priority}`;
}
