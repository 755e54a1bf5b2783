import type { z } from "zod";

/** An option's schema path as the user typed the flag: `localPort` → `--local-port`. */
export const flagOf = (path: readonly PropertyKey[]): string =>
  `--${String(path[0] ?? "").replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** Each refused option on its own line, named by its flag. */
export function writeOptionErrors(err: NodeJS.WritableStream, error: z.ZodError): void {
  for (const issue of error.issues) err.write(`${flagOf(issue.path)}: ${issue.message}\n`);
}

/**
 * The command's options checked against its schema: the parsed options, or undefined once the
 * first refused one is written (`--flag message`) for the caller to exit 2.
 */
export function parseOptions<S extends z.ZodType>(
  schema: S,
  input: unknown,
  err: NodeJS.WritableStream,
): z.output<S> | undefined {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  err.write(`${flagOf(issue?.path ?? [])} ${issue?.message ?? "is not valid"}\n`);
  return undefined;
}
