import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWebAssets } from "../scripts/build-web.js";
import { CHROMIUM, launchChromium } from "../test/web/browser-launch.js";
import { fillYear, startDemo, YEAR_DEVICE } from "../test/web/demo.js";

interface Resource {
  readonly name: string;
  readonly encodedBodySize: number;
  readonly decodedBodySize: number;
}

/**
 * The web page against the demo daemon in Debian's chromium: what the first load transfers
 * (gzip), how long until the Now page shows the house, and how long a year of 5-minute points
 * takes from the click to the drawn chart.
 */
export async function webBenchmark(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`web: skipped, ${CHROMIUM} is missing (apt-get install chromium)`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "e2m-webbench-"));
  await buildWebAssets();
  const points = fillYear(join(dir, "e2m.db"));
  const demo = await startDemo(dir);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The demo's first poll is in: what a user opening the page sees.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const started = performance.now();
    await page.goto(`${demo.url}#now`);
    await page.locator('[data-system] li[data-flow="solar"][data-watts]:not([data-watts=""])').first().waitFor();
    const firstRender = performance.now() - started;
    const inPage = (await page.evaluate("performance.now()")) as number;
    const resources = (await page.evaluate(
      "[performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')].map((e) => ({ name: e.name, encodedBodySize: e.encodedBodySize, decodedBodySize: e.decodedBodySize }))",
    )) as Resource[];
    const files = resources.filter((r) => !r.name.includes("/api/"));
    const outside = resources.filter((r) => !r.name.startsWith(demo.url)).length;
    const gzip = files.reduce((sum, r) => sum + r.encodedBodySize, 0);
    const raw = files.reduce((sum, r) => sum + r.decodedBodySize, 0);
    console.log(
      `web first load: ${(gzip / 1024).toFixed(1)} KB gzip (${(raw / 1024).toFixed(1)} KB unpacked) in ${files.length} files, ${outside} from another host`,
    );
    console.log(
      `web time to first render (Now page with the house's flows, SSE): ${firstRender.toFixed(0)} ms from navigation (${inPage.toFixed(0)} ms in-page clock)`,
    );

    await page.goto(`${demo.url}#history`);
    await page.locator("#history-device").selectOption(YEAR_DEVICE);
    const times: number[] = [];
    for (let run = 0; run < 3; run++) {
      await page.locator('button[data-range="day"]').click();
      await page.locator('[data-points="288"]').waitFor();
      const clicked = performance.now();
      await page.locator('button[data-range="all"]').click();
      // Locators, not a string to evaluate: the page's Content-Security-Policy refuses code made from text.
      await page.locator(`[data-points="${points}"]`).waitFor();
      await page.locator("#power-chart canvas").waitFor();
      times.push(performance.now() - clicked);
    }
    const rendered = await page.locator("[data-points]").getAttribute("data-rendered");
    times.sort((a, b) => a - b);
    console.log(
      `web year of 5-minute points (${points.toLocaleString("en")} points, ${rendered} drawn after averaging to the screen): median ${times[1]?.toFixed(0)} ms from click to chart (${times.map((t) => t.toFixed(0)).join(", ")} ms)`,
    );
  } finally {
    await browser.close();
    await demo.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
