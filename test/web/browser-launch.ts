/** Debian's chromium, as the browser tests and the web bench launch it (never playwright's own download). */
export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"];
