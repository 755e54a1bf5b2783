import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadRules } from "../../src/rules/file/load.js";

const DOC = readFileSync(new URL("../../docs/rules.md", import.meta.url), "utf8");
const AGILE_PRICES = new URL("../fixtures/octopus-agile-prices.example.json", import.meta.url);

/** Every ```yaml block of the cookbook, named by the section it is in. */
function examples(markdown: string): { section: string; yaml: string }[] {
  const found: { section: string; yaml: string }[] = [];
  let section = "(before the first section)";
  const lines = markdown.split("\n");
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? "";
    if (line.startsWith("## ")) section = line.slice(3).trim();
    if (line.trim() !== "```yaml") continue;
    const end = lines.findIndex((next, index) => index > at && next.trim() === "```");
    if (end < 0) throw new Error(`the yaml block of "${section}" is not closed`);
    found.push({ section, yaml: lines.slice(at + 1, end).join("\n") });
    at = end;
  }
  return found;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** rules.yaml in a fresh folder, next to the Agile prices file the examples name. */
function writeRules(yaml: string): { file: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "e2m-cookbook-"));
  dirs.push(dir);
  copyFileSync(AGILE_PRICES, join(dir, "agile-prices.json"));
  const file = join(dir, "rules.yaml");
  writeFileSync(file, `${yaml}\n`);
  return { file, dir };
}

const blocks = examples(DOC);

describe("docs/rules.md", () => {
  it("has one complete example for each recipe the cookbook promises", () => {
    expect(blocks.map((block) => block.section)).toEqual([
      "Two rules, one control: who wins, and what each puts back",
      "Octopus Agile: charge the battery in the cheapest half-hours",
      "Let the optimiser run the battery (any tariff, best with Agile)",
      "Let the optimiser run the battery (any tariff, best with Agile)",
      "Let the optimiser run the battery (any tariff, best with Agile)",
      "Octopus Go: fill the battery in the cheap night hours",
      "Octopus Flux: charge at night, export at the peak",
      "Economy 7: reach a full battery by the end of the night rate",
      "EV charging by a morning deadline",
      "Export in peak hours",
      "Pause the battery while the car charges",
      "Winter battery conditioning",
    ]);
  });

  it.each(blocks.map((block) => [block.section, block.yaml] as const))(
    "the example of %s is accepted by the rules loader",
    (_section, yaml) => {
      const { file } = writeRules(yaml);
      const { rules } = loadRules(file);
      expect(rules.rules.length).toBeGreaterThan(0);
      expect(rules.tariffs.import).toBeDefined();
    },
  );

  it("points the Agile example at a prices file next to rules.yaml", () => {
    const agile = blocks.find((block) => block.section.startsWith("Octopus Agile"));
    if (!agile) throw new Error("no Agile example");
    const { file, dir } = writeRules(agile.yaml);
    const { rules } = loadRules(file);
    expect(rules.tariffs.import).toMatchObject({ type: "agile", file: join(dir, "agile-prices.json") });
  });

  it("refuses the shared-control example without its wins_over, as the section says", () => {
    const shared = blocks.find((block) => block.section.startsWith("Two rules, one control"));
    if (!shared) throw new Error("no shared-control example");
    const { file } = writeRules(
      shared.yaml
        .split("\n")
        .filter((line) => !line.includes("wins_over"))
        .join("\n"),
    );
    expect(() => loadRules(file)).toThrow(/"night-reserve" and "storm-reserve" both act on setting 71/);
  });
});
