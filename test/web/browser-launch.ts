import { existsSync } from "node:fs";
import type { Browser, Page } from "playwright-core";

/** Debian's chromium, as the browser tests and the web bench launch it (never playwright's own download). */
export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"];

/** Whether Debian's chromium is installed. */
export const hasChromium = existsSync(CHROMIUM);

/** Debian's chromium, headless, driven by playwright-core. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A page of the daemon's web UI in a new context: 1280 px wide unless said, en-GB, downloads kept. */
export async function openWebPage(browser: Browser, url: string, width = 1280): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    locale: "en-GB",
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await page.goto(url);
  return page;
}
