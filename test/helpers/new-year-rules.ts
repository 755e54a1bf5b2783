/**
 * A rules file that changes nothing on an ordinary day: fixed tariffs (so the rules' prices and
 * savings are published) and one rule that only fires at noon on New Year's Day.
 */
export const NEW_YEAR_RULES_YAML = [
  "tariffs:",
  "  currency: GBP",
  "  import: { type: fixed, price: 0.25 }",
  "  export: { type: fixed, price: 0.15 }",
  "rules:",
  "  - name: new-year-note",
  '    when: { cron: "0 12 1 1 *" }',
  "    do:",
  '      - notify: { title: "Happy new year", body: "The house is running on its rules." }',
].join("\n");
