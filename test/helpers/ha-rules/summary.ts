import type { Finding } from "./types.js";

/** Findings grouped by rule, most frequent first, with a few examples each: for a test's failure message and a report. */
export function summariseFindings(findings: readonly Finding[], examplesPerRule = 3): string {
  if (findings.length === 0) return "no findings";
  const byRule = new Map<string, Finding[]>();
  for (const finding of findings) byRule.set(finding.rule, [...(byRule.get(finding.rule) ?? []), finding]);
  const lines: string[] = [];
  for (const [rule, list] of [...byRule].sort((a, b) => b[1].length - a[1].length)) {
    const entities = new Set(list.map((f) => f.configTopic)).size;
    lines.push(`${rule}: ${list.length} (${entities} entities) [${list[0]?.reference ?? ""}]`);
    for (const example of list.slice(0, examplesPerRule)) {
      lines.push(`  - ${example.uniqueId || example.configTopic} on ${example.topic}: ${example.message}`);
    }
  }
  return lines.join("\n");
}

/** Count of findings by rule id. */
export function countByRule(findings: readonly Finding[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const finding of findings) counts[finding.rule] = (counts[finding.rule] ?? 0) + 1;
  return counts;
}
