import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/** axe-core's page script, evaluated through the test's own channel (the page's CSP refuses injected scripts). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface Violation {
  readonly id: string;
  readonly impact?: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

interface Axe {
  run(context: unknown, options: unknown): Promise<{ violations: Violation[]; passes: unknown[] }>;
}

/**
 * axe-core's serious and critical violations on the page as it is now (within `context`, the
 * whole document by default), one line each, and how many checks passed (so that a run that
 * checked nothing is seen).
 */
export async function axeCheck(
  page: Page,
  name: string,
  context?: string,
): Promise<{ readonly serious: string[]; readonly passed: number }> {
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async (within) => {
    const { axe, document } = globalThis as unknown as { axe: Axe; document: unknown };
    const found = await axe.run(within ?? document, { resultTypes: ["violations"] });
    return {
      passed: found.passes.length,
      violations: found.violations.map(({ id, impact, help, nodes }) => ({
        id,
        impact: impact ?? null,
        help,
        targets: nodes.slice(0, 3).map((node) => node.target.join(" ")),
      })),
    };
  }, context);
  return {
    passed: result.passed,
    serious: result.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map(
        (violation) =>
          `${name}: ${violation.id} (${violation.impact}) ${violation.help} at ${violation.targets.join("; ")}`,
      ),
  };
}
