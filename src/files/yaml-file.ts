import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isMap, LineCounter, parseDocument, type ScalarTag } from "yaml";

/** A YAML file read with its line numbers, for errors that name file and line. */
export interface YamlFile {
  readonly raw: unknown;
  /** `file:line` of the deepest node that exists on the key path: the key itself, or the section missing it. */
  readonly locate: (keyPath: readonly PropertyKey[]) => string;
  /** Syntax errors and warnings as `file:line:col: message`; empty when the file parsed. */
  readonly errors: readonly string[];
}

/** Reads a YAML file, resolving `!secret name` from secrets.yaml beside it. */
export function readYamlFile(path: string): YamlFile {
  const secrets = secretTag(join(dirname(path), "secrets.yaml"));
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(path, "utf8"), { lineCounter, customTags: [secrets], prettyErrors: false });
  const errors = [...doc.errors, ...doc.warnings].map((error) => {
    const pos = lineCounter.linePos(error.pos[0]);
    return `${path}:${pos.line}:${pos.col}: ${error.message.split("\n")[0]}`;
  });
  const locate = (keyPath: readonly PropertyKey[]): string => {
    for (let depth = keyPath.length; depth >= 0; depth--) {
      const node = doc.getIn(keyPath.slice(0, depth) as unknown[], true) as
        | { range?: [number, number, number] }
        | undefined;
      const start = node?.range?.[0];
      if (start !== undefined) return `${path}:${lineCounter.linePos(start).line}`;
    }
    return path;
  };
  const raw: unknown =
    errors.length > 0 ? undefined : isMap(doc.contents) || doc.contents === null ? (doc.toJS() ?? {}) : doc.toJS();
  return { raw, locate, errors };
}

function secretTag(secretsPath: string): ScalarTag {
  let secrets: Record<string, unknown> | undefined;
  return {
    tag: "!secret",
    resolve(name, onError) {
      if (!existsSync(secretsPath)) {
        onError(
          `secret "${name}": secrets file not found at ${secretsPath}; create it with \`${name}: ...\`, or give the value here`,
        );
        return "";
      }
      secrets ??= parseDocument(readFileSync(secretsPath, "utf8")).toJS() ?? {};
      const value = secrets?.[name];
      if (value === undefined || value === null) {
        onError(`secret "${name}" is not defined in ${secretsPath}`);
        return "";
      }
      return String(value);
    },
  };
}
