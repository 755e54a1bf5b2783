import { describe, expect, it } from "vitest";
import { sharedControlLines } from "../../src/rules/file/control-overlaps.js";
import { loadRules } from "../../src/rules/file/load.js";
import { problemsOf, rulesFile } from "./helpers.js";

const header = ["tariffs:", "  import: { type: fixed, price: 0.2 }", "rules:"];
const reserveRule = (name: string, when: string, extra: string[] = []) => [
  `  - name: ${name}`,
  `    when: ${when}`,
  ...extra,
  "    do: [{ setting: 71, value: 50 }]",
];
const WINDOW = "{ price: { below: 0.3 } }";
const CRON = "{ cron: '0 3 * * *' }";

describe("rules on the same control: which wins is known before they run", () => {
  it("refuses two rules of equal priority on one control when either has a window, naming both and the fix", () => {
    const file = rulesFile([...header, ...reserveRule("night", WINDOW), ...reserveRule("morning", CRON)]);
    const problems = problemsOf(() => loadRules(file));
    expect(problems).toEqual([
      expect.stringMatching(
        /rules\.yaml:\d+: rules\.1\.priority: "night" and "morning" both act on setting 71 on the default inverter with priority 0.*wins_over: \[morning\] on "night"/,
      ),
    ]);
  });

  it("lets two cron rules share a control at equal priority: neither holds it", () => {
    const file = rulesFile([
      ...header,
      ...reserveRule("night", CRON),
      ...reserveRule("morning", "{ cron: '0 7 * * *' }"),
    ]);
    expect(loadRules(file).rules.rules).toHaveLength(2);
  });

  it("accepts equal priorities once wins_over says which wins, and says who wins each shared control", () => {
    const file = rulesFile([
      ...header,
      ...reserveRule("night", WINDOW, ["    wins_over: [morning]"]),
      ...reserveRule("morning", CRON),
      ...reserveRule("boost", "{ price: { below: 0.1 } }", ["    priority: 5"]),
    ]);
    const { rules } = loadRules(file).rules;
    expect(sharedControlLines(rules)).toEqual([
      "setting 71 on the default inverter: night wins over morning (wins_over, both priority 0) whenever both act on it while a window is open",
      "setting 71 on the default inverter: boost wins over night (priority 5 over 0) whenever both act on it while a window is open",
      "setting 71 on the default inverter: boost wins over morning (priority 5 over 0) whenever both act on it while a window is open",
    ]);
  });

  it("refuses a wins_over that names no rule, the rule itself, a rule of another priority, or one that names it back", () => {
    const file = rulesFile([
      ...header,
      ...reserveRule("a", WINDOW, ["    wins_over: [b, a, nobody]"]),
      ...reserveRule("b", WINDOW, ["    wins_over: [a]"]),
      ...reserveRule("c", CRON, ["    priority: 3", "    wins_over: [a]"]),
    ]);
    const problems = problemsOf(() => loadRules(file)).join("\n");
    expect(problems).toMatch(/rules\.0\.wins_over: names "b", whose wins_over names "a" too/);
    expect(problems).toMatch(/rules\.0\.wins_over: names the rule itself \("a"\)/);
    expect(problems).toMatch(/rules\.0\.wins_over: names "nobody", but no rule has that name/);
    expect(problems).toMatch(/rules\.2\.wins_over: names "a", whose priority \(0\) differs from this rule's \(3\)/);
  });
});
