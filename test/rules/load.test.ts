import { describe, expect, it } from "vitest";
import { loadRules, rulesPath } from "../../src/rules/file/load.js";
import { problemsOf, rulesFile } from "./helpers.js";

const TARIFFS = ["tariffs:", "  import: { type: fixed, price: 0.25 }", "  export: { type: fixed, price: 0.15 }"];

describe("loading rules.yaml", () => {
  it("reads the design's target shape, with defaults filled in", () => {
    const file = rulesFile([
      "tariffs:",
      "  import:",
      "    type: zones",
      "    price: 0.27",
      "    zones:",
      '      - { hours: "00:30-05:30", price: 0.085 }',
      "  export: { type: fixed, price: 0.15 }",
      "rules:",
      "  - name: overnight-top-up",
      '    when: { cheapest: { hours: 3, before: "07:00", tariff: import } }',
      "    if: { battery_soc_below: 90 }",
      "    do:",
      "      - preset: timed-charge",
      '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: 100 }] }',
      "      - charger: change-mode",
      "        with: { mode: Boost }",
      "    restore: after_window",
    ]);
    const { rules } = loadRules(file);
    const [rule] = rules.rules;
    expect(rule).toMatchObject({
      name: "overnight-top-up",
      enabled: true,
      priority: 0,
      dry_run: false,
      restore: "after_window",
    });
    expect(rule?.when).toEqual([{ cheapest: { hours: 3, before: "07:00", tariff: "import", split: false } }]);
    expect(rules.tariffs.currency).toBe("GBP");
    expect(rules.battery).toEqual({ charge_kw: 3, efficiency: 0.9 });
  });

  it("defaults restore to after_window for window triggers and never for the others", () => {
    const file = rulesFile([
      ...TARIFFS,
      "rules:",
      "  - name: a",
      "    when: { price: { below: 0.1 } }",
      "    do: [{ preset: eco-mode, with: { enabled: true } }]",
      "  - name: b",
      '    when: { cron: "0 7 * * *" }',
      "    do: [{ snapshot: take }]",
    ]);
    expect(loadRules(file).rules.rules.map((rule) => rule.restore)).toEqual(["after_window", "never"]);
  });

  it("names file and line for each problem: cron, hours, preset fields, templates, charger commands", () => {
    const file = rulesFile([
      ...TARIFFS,
      "rules:",
      "  - name: bad",
      '    when: { cron: "61 * * * *" }',
      "    do:",
      "      - preset: timed-charge",
      "        with:",
      '          slots: [{ start_time: "{{ window.begin }}", percent_limit: 120 }]',
      "      - charger: change-mode",
      "        with: { mode: 3 }",
      "      - charger: fly-away",
      "  - name: zones",
      '    when: { cheapest: { hours: 2, before: "7am" } }',
      "    do: [{ setting: 71 }]",
    ]);
    const problems = problemsOf(() => loadRules(file));
    expect(problems).toEqual([
      `${file}:6: rules.0.when.cron: "61 * * * *" is not a cron expression (61 is a invalid expression for minute); e.g. "30 7 * * 1-5" for 07:30 on weekdays`,
      expect.stringMatching(
        new RegExp(
          `^${file}:10: rules\\.0\\.do\\.0\\.with\\.slots\\.0\\.start_time: unknown template "\\{\\{ window\\.begin \\}\\}"; known: window\\.start,`,
        ),
      ),
      `${file}:10: rules.0.do.0.with.slots.0.percent_limit: Too big: expected number to be <=100`,
      `${file}:12: rules.0.do.1.with.mode: Invalid input: expected string, received number`,
      expect.stringMatching(
        new RegExp(
          `^${file}:13: rules\\.0\\.do\\.2\\.charger: "fly-away" is not an EV charger command; known: start-charge,`,
        ),
      ),
      `${file}:15: rules.1.when.cheapest.before: expected a local time as HH:MM, e.g. 07:00`,
      `${file}:16: rules.1.do.0: a setting action needs value:`,
    ]);
  });

  it("refuses unknown keys, two triggers in one entry, duplicate names and a missing tariff", () => {
    const file = rulesFile([
      "tariffs:",
      "  import: { type: fixed, price: 0.25 }",
      "rules:",
      "  - name: one",
      '    when: { cron: "0 7 * * *", battery_soc_below: 20 }',
      "    do: [{ snapshot: take }]",
      "    restor: never",
      "  - name: one",
      "    when: { most_expensive: { hours: 1, before: '20:00' } }",
      "    do: [{ snapshot: take }]",
    ]);
    expect(problemsOf(() => loadRules(file))).toEqual([
      `${file}:5: rules.0.when: a trigger (when:) has cron and battery_soc_below: give one per entry (use a list for several)`,
      `${file}:7: rules.0.restor: unknown key "restor"; check the spelling against config/rules.example.yaml`,
      `${file}:8: rules.1.name: "one" is used twice`,
      `${file}:9: rules.1.when.0: uses the export tariff, but tariffs.export is not defined`,
    ]);
  });

  it("refuses a snapshot named under the daemon's own prefix (e2m:)", () => {
    const file = rulesFile([
      ...TARIFFS,
      "rules:",
      "  - name: mine",
      '    when: { cron: "0 7 * * *" }',
      '    do: [{ snapshot: take, name: "e2m:pause-limits" }]',
    ]);
    expect(problemsOf(() => loadRules(file))).toEqual([
      `${file}:7: rules.0.do.0.name: snapshot names starting "e2m:" are energy2mqtt's own (got "e2m:pause-limits"): choose another name`,
    ]);
  });

  it("refuses restore: after_window on a rule with no window", () => {
    const file = rulesFile([
      "rules:",
      "  - name: state",
      "    when: { ev_plugged: true }",
      "    do: [{ charger: start-charge }]",
      "    restore: after_window",
    ]);
    expect(problemsOf(() => loadRules(file))).toEqual([
      `${file}:5: rules.0.restore: after_window needs a trigger with a window (price, cheapest, most_expensive, battery, ev, optimise); use never for cron and state triggers`,
    ]);
  });

  it("reports a YAML syntax error with line and column, and a missing file", () => {
    const file = rulesFile(["rules:", "  - name: x", "    when: { cron: '* * * * *'"]);
    expect(problemsOf(() => loadRules(file))[0]).toMatch(new RegExp(`^${file}:\\d+:\\d+: `));
    expect(problemsOf(() => loadRules(`${file}.nope`))).toEqual([`${file}.nope: file not found`]);
  });

  it("checks agile sources and resolves a file beside rules.yaml; reads !secret", () => {
    const bad = rulesFile(["tariffs:", "  import: { type: agile }"]);
    expect(problemsOf(() => loadRules(bad))).toEqual([
      `${bad}:2: tariffs.import: an agile tariff needs file: or url: (one of them)`,
    ]);
    const good = rulesFile(
      [
        "tariffs:",
        "  import: { type: agile, file: prices.json, fallback: 0.3 }",
        "  export: { type: agile, url: !secret octopus }",
      ],
      { "secrets.yaml": "octopus: https://example.test/rates/\n" },
    );
    const { tariffs } = loadRules(good).rules;
    expect(tariffs.import).toMatchObject({
      type: "agile",
      file: good.replace("rules.yaml", "prices.json"),
      scale: 0.01,
      refresh: 1_800_000,
    });
    expect(tariffs.export).toMatchObject({ url: "https://example.test/rates/" });
  });

  it("resolves the configuration's rules: key relative to the configuration file", () => {
    expect(rulesPath("rules.yaml", "/etc/e2m/configuration.yaml")).toBe("/etc/e2m/rules.yaml");
    expect(rulesPath("/srv/rules.yaml", "/etc/e2m/configuration.yaml")).toBe("/srv/rules.yaml");
  });

  it("refuses {{ window.* }} in a rule any of whose triggers has no window, and takes it in a window rule", () => {
    const file = rulesFile([
      ...TARIFFS,
      "rules:",
      "  - name: mixed",
      '    when: [{ cheapest: { hours: 2, before: "07:00" } }, { cron: "0 3 * * *" }]',
      '    do: [{ setting: 71, value: "{{ window.hours }}" }]',
      "  - name: windowed",
      // Above "mixed": the two share setting 71, and which wins is not what this test is about.
      "    priority: 1",
      '    when: { cheapest: { hours: 2, before: "07:00" } }',
      '    do: [{ setting: 71, value: "{{ window.hours }}" }]',
    ]);
    expect(problemsOf(() => loadRules(file))).toEqual([
      `${file}:7: rules.0.do.0.value: rule "mixed" uses {{ window.hours }}, but its cron trigger has no window (only price, cheapest, most_expensive, battery, ev, optimise triggers have one): use {{ now.time }} or {{ now.date }}, or a window trigger`,
    ]);
  });

  it("refuses zone hours off the half-hour grid, in zones and in an agile fallback, naming the nearest hours on it", () => {
    const file = rulesFile([
      "tariffs:",
      "  import:",
      "    type: zones",
      "    price: 0.27",
      "    zones:",
      '      - { hours: "23:30-23:40", price: 0.1 }',
      '      - { hours: "23:50-05:30", price: 0.1 }',
      '      - { hours: "16:00-19:00", price: 0.4 }',
      "  export:",
      "    type: agile",
      "    url: https://example.com/prices",
      '    fallback: { price: 0.15, zones: [{ hours: "00:14-06:15", price: 0.1 }] }',
    ]);
    const grid = (hours: string, use: string) =>
      `"${hours}" is not on the tariff's half-hour grid (prices change only at :00 and :30): use ${use}`;
    expect(problemsOf(() => loadRules(file))).toEqual([
      `${file}:6: tariffs.import.zones.0.hours: ${grid("23:30-23:40", "23:30-24:00")}`,
      `${file}:7: tariffs.import.zones.1.hours: ${grid("23:50-05:30", "00:00-05:30")}`,
      `${file}:12: tariffs.export.fallback.zones.0.hours: ${grid("00:14-06:15", "00:00-06:30")}`,
    ]);
  });
});
