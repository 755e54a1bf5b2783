import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type HistoryRecord, openStore } from "../../src/store/index.js";
import { startTestSimulator } from "../helpers/simulator.js";
import { runPlan } from "./rules-plan-run.js";

const FIXTURE = new URL("../fixtures/octopus-agile-prices.example.json", import.meta.url).pathname;

function setup(rules: readonly string[]): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), "e2m-rules-plan-"));
  copyFileSync(FIXTURE, join(dir, "agile.json"));
  writeFileSync(join(dir, "rules.yaml"), `${rules.join("\n")}\n`);
  const config = join(dir, "configuration.yaml");
  writeFileSync(config, "rules: rules.yaml\n");
  return { dir, config };
}

const AGILE_RULES = [
  "timezone: Europe/London",
  "battery: { capacity_kwh: 10, charge_kw: 2.5, efficiency: 1 }",
  "tariffs:",
  "  import: { type: agile, file: agile.json, fallback: 0.3 }",
  "  export: { type: fixed, price: 0.15 }",
  "rules:",
  "  - name: night-charge",
  '    when: { battery: { target_soc: 80, before: "07:00" } }',
  "    do:",
  "      - preset: timed-charge",
  '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: "{{ plan.target_soc }}" }] }',
];

/** Two weeks of 5-minute points: 2 kW of use from 17:00 to 20:00 UTC, 250 W otherwise, no sun. */
function fillStore(path: string, until: number): void {
  const store = openStore(path);
  const rows: HistoryRecord[] = [];
  for (let at = until - 14 * 86_400_000; at < until; at += 300_000) {
    const hour = new Date(at).getUTCHours();
    const consumption = hour >= 17 && hour < 20 ? 2000 : 250;
    rows.push({
      kind: "inverter.point",
      device: "SD2024G001",
      at,
      key: "",
      data: { status: "NORMAL", power: { solar: { power: 0 }, consumption: { power: consumption } } },
    });
  }
  store.history.write(rows);
  store.close();
}

describe("energy2mqtt rules plan", () => {
  beforeEach(() => vi.stubEnv("ENERGY2MQTT_CONFIG", ""));
  afterEach(() => vi.unstubAllEnvs());

  it("plans an Agile night: the windows with their actions, a row per half-hour, the chart and the SoC", async () => {
    const { config } = setup(AGILE_RULES);
    const result = await runPlan({ config, now: "2026-11-22T23:00:00Z", hours: "24", soc: "30" });
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    const lines = result.out.split("\n");
    expect(lines[0]).toBe("Rules plan 2026-11-22 23:00 to 2026-11-23 23:00 (Europe/London), prices in GBP/kWh");
    expect(lines[1]).toBe("Battery: 30% now (--soc) of 10 kWh (rules.yaml); the house's own use is not modelled");
    // 5 kWh at 2.5 kW: 2 hours in the four cheapest half-hours before 07:00 (the negative one included).
    const windowLines = lines.filter((line) => line.includes("battery to 80% before 07:00"));
    expect(windowLines.length).toBeGreaterThan(0);
    // Each action in words, then as sent.
    expect(result.out).toContain(
      '      Timed charge to 80% 02:30–03:00 on the default inverter\n        sends preset timed-charge {"enabled":true,"slots":[{"start_time":"02:30","end_time":"03:00","percent_limit":80}]}\n',
    );
    const rows = lines.filter((line) => /^ {2}2026-11-2\d \d\d:\d\d +-?\d/.test(line));
    expect(rows).toHaveLength(48);
    const plannedRows = rows.filter((line) => line.endsWith("night-charge"));
    expect(plannedRows).toHaveLength(4);
    expect(rows[0]).toMatch(/^ {2}2026-11-22 23:00 +0\.1542 +0\.1500 +30%/);
    expect(rows[47]).toMatch(/ 80%/);
    expect(result.out).toContain("night-charge        ");
    expect(result.out).toMatch(/battery SoC +[▁-█]+/);
  });

  it("starts from the house's own battery when a cloud is configured and --soc is left out", async () => {
    const sim = await startTestSimulator({ speed: 0 });
    try {
      const { dir, config } = setup(AGILE_RULES.map((line) => line.replace("capacity_kwh: 10, ", "")));
      writeFileSync(
        config,
        `rules: rules.yaml\ncloud:\n  url: ${sim.simulator.url}\n  token: ${sim.simulator.tokens.owner}\nstore:\n  path: ${join(dir, "e.db")}\n`,
      );
      const client = sim.clientFor("owner");
      const soc = (await client.inverterData.systemDataLatest("SD2024G001")).battery?.percent;
      const result = await runPlan({ config, now: "2026-11-22T23:00:00Z", hours: "24" });
      expect(result.code).toBe(0);
      expect(result.out.split("\n")[1]).toMatch(
        new RegExp(`^Battery: ${soc}% now \\(inverter SD2024G001\\) of [\\d.]+ kWh \\(inverter SD2024G001\\)`),
      );
    } finally {
      await sim.stop();
    }
  });

  it("says when tomorrow's prices are missing and marks the fallback slots", async () => {
    const { config } = setup(AGILE_RULES);
    const result = await runPlan({ config, now: "2026-11-23T17:00:00Z", hours: "12", soc: "30" });
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      "import prices: tomorrow's prices are not published yet (published prices end 2026-11-23 23:00); slots without a price use the fallback (marked estimated)",
    );
    expect(result.out).toMatch(/2026-11-23 23:00 +0\.3000 +0\.1500 .*\(estimated\)/);
  });

  it("writes an SVG with a price bar per half-hour, the rule's windows and the SoC line", async () => {
    const { config, dir } = setup(AGILE_RULES);
    const file = join(dir, "plan.svg");
    const result = await runPlan({ config, now: "2026-11-22T23:00:00Z", hours: "24", soc: "30", out: file });
    expect(result.code).toBe(0);
    expect(result.out).toContain(`SVG written to ${file}`);
    const svg = readFileSync(file, "utf8");
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    expect(svg.match(/<rect class="import"/g)).toHaveLength(48);
    expect(svg.match(/<rect class="export"/g)).toHaveLength(48);
    expect(svg.match(/<rect class="window"/g)?.length).toBeGreaterThan(0);
    expect(svg).toContain('<polyline class="soc"');
    expect(svg).toContain(">night-charge</text>");
  });

  it("says which rule wins a shared control, and where the planned windows meet on it", async () => {
    const { config } = setup([
      ...AGILE_RULES,
      "  - name: plunge",
      "    priority: 5",
      "    when: { price: { below: 1000 } }",
      "    do:",
      "      - preset: timed-charge",
      '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: 100 }] }',
    ]);
    const result = await runPlan({ config, now: "2025-01-14T16:00:00Z", soc: "20", hours: "24" });
    expect(result.err).toBe("");
    const lines = result.out.split("\n");
    const at = lines.indexOf("Shared controls (who wins while windows overlap)");
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe(
      "  preset timed-charge on the default inverter: plunge wins over night-charge (priority 5 over 0) whenever both act on it while a window is open",
    );
    expect(lines[at + 2]).toMatch(
      /^ {2}\d{4}-\d\d-\d\d \d\d:\d\d-\d\d:\d\d {2}preset timed-charge on the default inverter: plunge wins, night-charge is not sent \(priority 5 over 0\)$/,
    );
  });

  it("exits 2 with file and line for bad rules, without rules configured, and for bad options", async () => {
    const { config, dir } = setup([
      "rules:",
      "  - name: x",
      '    when: { cheapest: { hours: 2, before: "7" } }',
      "    do: [{ snapshot: take }]",
    ]);
    const bad = await runPlan({ config });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(
      `${join(dir, "rules.yaml")}:3: rules.0.when.cheapest.before: expected a local time as HH:MM`,
    );
    // A real house (a cloud) without a rules file; with no cloud the demo house's own rules plan (rules-plan-demo.test.ts).
    writeFileSync(config, "log:\n  level: error\ncloud: { url: http://127.0.0.1:9/v1, token: t }\n");
    expect((await runPlan({ config })).err).toContain("no rules file");
    expect((await runPlan({ config, rules: join(dir, "rules.yaml"), hours: "0" })).code).toBe(2);
    expect((await runPlan({ config, rules: join(dir, "rules.yaml"), out: "plan.png" })).err).toContain("SVG");
  });

  it("takes the house's use from the store: the SoC falls in the evening, and the last day's forecast is checked", async () => {
    const { dir, config } = setup(["timezone: Europe/London", "battery: { capacity_kwh: 10 }", "rules: []"]);
    const now = Date.parse("2026-11-22T12:00:00Z");
    fillStore(join(dir, "e2m.db"), now);
    writeFileSync(config, `rules: rules.yaml\nstore: { path: ${join(dir, "e2m.db")} }\n`);
    const result = await runPlan({ config, now: "2026-11-22T12:00:00Z", hours: "12", soc: "80" });
    expect(result.err).toBe("");
    const lines = result.out.split("\n");
    // Fourteen times 24 hours from noon touch fifteen local days.
    expect(lines[1]).toBe(
      "Battery: 80% now (--soc) of 10 kWh (rules.yaml); the house's use and solar by time of day learned from 15 days of the store's history",
    );
    // The last day: 3 h at 2 kW and 21 h at 250 W is 11.25 kWh; the forecast learned the same shape.
    const check = lines.find((line) => line.startsWith("House forecast against actual"));
    expect(check).toMatch(/use 11\.2 kWh forecast, 11\.3 actual|use 11\.3 kWh forecast, 11\.3 actual/);
    const soc = (clock: string) =>
      Number(/ (\d+)%/.exec(lines.find((line) => line.startsWith(`  2026-11-22 ${clock}`)) ?? "")?.[1]);
    // 250 W for five hours (about 1.3 kWh from the battery), then 2 kW from 17:00 to 20:00.
    expect(soc("12:00")).toBe(80);
    expect(soc("17:00")).toBeLessThan(70);
    expect(soc("20:00")).toBeLessThan(soc("17:00") - 50);
  });
});
