import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export interface Instruction {
  readonly keyword: string;
  readonly args: string;
  /** Index of the stage (FROM) this instruction belongs to. */
  readonly stage: number;
}

/** The Dockerfile's instructions, with continuation lines joined and comments dropped. */
export function parseDockerfile(text: string): Instruction[] {
  const logical = text
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  let stage = -1;
  return logical.map((line) => {
    const [keyword = "", ...rest] = line.split(/\s+/);
    if (keyword.toUpperCase() === "FROM") stage++;
    return { keyword: keyword.toUpperCase(), args: rest.join(" "), stage };
  });
}

/** The exec-form JSON array of CMD, ENTRYPOINT or HEALTHCHECK ... CMD. */
export function execForm(args: string): string[] {
  const json = args.slice(args.indexOf("["));
  return JSON.parse(json) as string[];
}

/** COPY's flags, sources and destination. */
export function copyParts(args: string): { from: string | undefined; sources: string[]; destination: string } {
  const words = args.split(/\s+/);
  const flags = words.filter((word) => word.startsWith("--"));
  const paths = words.filter((word) => !word.startsWith("--"));
  const from = flags.find((flag) => flag.startsWith("--from="))?.slice("--from=".length);
  return { from, sources: paths.slice(0, -1), destination: paths.at(-1) ?? "" };
}

/** Docker's .dockerignore rules: globs, `!` re-includes, the last matching line wins, a matched folder covers its files. */
export function dockerignore(text: string): (path: string) => boolean {
  const rules = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith("#"))
    .map((line) => {
      const include = line.startsWith("!");
      const pattern = (include ? line.slice(1) : line).replace(/^\/+|\/+$/g, "");
      const source = pattern
        .split(/(\*\*|\*|\?)/)
        .map((part) =>
          part === "**"
            ? ".*"
            : part === "*"
              ? "[^/]*"
              : part === "?"
                ? "[^/]"
                : part.replace(/[.+^${}()|[\]\\]/g, "\\$&"),
        )
        .join("");
      return { include, regex: new RegExp(`^${source}(/.*)?$`) };
    });
  return (path) => {
    let excluded = false;
    for (const rule of rules) if (rule.regex.test(path)) excluded = !rule.include;
    return excluded;
  };
}

/** Every file under `path` (itself when it is a file), relative to the repository. */
export function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

export const readText = (path: string): string => readFileSync(path, "utf8");
