import type { z } from "zod";

/** An option's schema path as the user typed the flag: `localPort` → `--local-port`. */
export const flagOf = (path: readonly PropertyKey[]): string =>
  `--${String(path[0] ?? "").replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** Each refused option on its own line, named by its flag. */
export function writeOptionErrors(err: NodeJS.WritableStream, error: z.ZodError): void {
  for (const issue of error.issues) err.write(`${flagOf(issue.path)}: ${issue.message}\n`);
}
