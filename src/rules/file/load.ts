import { existsSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import type { z } from "zod";
import { readYamlFile } from "../../files/yaml-file.js";
import { type RulesFile, rulesFileSchema } from "./schema.js";

/**
 * A rules file that cannot be used; each problem names the file and line. `check` prints the
 * message and `run` stops with it, word for word.
 */
export class RulesError extends Error {
  override readonly name = "RulesError";
  constructor(
    readonly problems: readonly string[],
    heading = "rules are not valid",
  ) {
    super(`${heading}:\n  ${problems.join("\n  ")}`);
  }
}

export interface LoadedRules {
  readonly rules: RulesFile;
  readonly file: string;
}

/** Reads and validates rules.yaml; agile `file:` paths come back absolute, relative to the rules file. */
export function loadRules(file: string): LoadedRules {
  const path = resolve(file);
  if (!existsSync(path)) throw new RulesError([`${path}: file not found`]);
  const yaml = readYamlFile(path);
  if (yaml.errors.length > 0) throw new RulesError(yaml.errors);
  const result = rulesFileSchema.safeParse(yaml.raw ?? {});
  if (!result.success) {
    const lineOf = (problem: string) => Number(/:(\d+): /.exec(problem)?.[1] ?? 0);
    throw new RulesError(
      result.error.issues
        .flatMap(meantIssues)
        .flatMap((issue) => {
          // An unknown key is reported at its own line, one problem per key.
          const cases =
            issue.code === "unrecognized_keys"
              ? issue.keys.map((name) => ({
                  at: [...issue.path, name],
                  message: `unknown key "${name}"; check the spelling against config/rules.example.yaml`,
                }))
              : [{ at: issue.path, message: issue.message }];
          return cases.map(
            ({ at, message }) => `${yaml.locate(at)}: ${at.map(String).join(".") || "(top level)"}: ${message}`,
          );
        })
        // In file order, whichever check found them.
        .sort((a, b) => lineOf(a) - lineOf(b)),
    );
  }
  return { rules: withAbsoluteFiles(result.data, dirname(path)), file: path };
}

/** The rules file a configuration names: relative to the configuration file's folder. */
export function rulesPath(rules: string, configFile: string | undefined): string {
  if (isAbsolute(rules)) return rules;
  return resolve(configFile ? dirname(configFile) : process.cwd(), rules);
}

function withAbsoluteFiles(rules: RulesFile, dir: string): RulesFile {
  const fix = <T extends { type: string; file?: string }>(tariff: T | undefined): T | undefined =>
    tariff?.type === "agile" && tariff.file !== undefined ? { ...tariff, file: resolve(dir, tariff.file) } : tariff;
  const tariffs = { ...rules.tariffs };
  const imported = fix(tariffs.import);
  const exported = fix(tariffs.export);
  if (imported) tariffs.import = imported;
  if (exported) tariffs.export = exported;
  return { ...rules, tariffs };
}

/**
 * A union's problems from the one option the value was meant for, the others failing at their
 * root (a trigger given as a map is not a list): "expected boolean" at the key, not "Invalid input".
 */
function meantIssues(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== "invalid_union") return [issue];
  const meant = issue.errors.filter(
    (errors) => !errors.some((inner) => inner.path.length === 0 && inner.code === "invalid_type"),
  );
  const only = meant.length === 1 ? meant[0] : undefined;
  if (!only) return [issue];
  return only.flatMap((inner) => meantIssues({ ...inner, path: [...issue.path, ...inner.path] }));
}
