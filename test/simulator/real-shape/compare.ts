/*
 * Compares the shape of a simulator answer with a body of the real service: the same keys and
 * JSON types at every level, values aside. Paths read like `data[].inverter.connections`, `[]`
 * standing for any element of an array.
 */

export type Problem = "missing" | "extra" | "type";

export interface Difference {
  readonly path: string;
  readonly problem: Problem;
  readonly detail: string;
}

/** A difference that must stay, and why. */
export interface Allowed {
  readonly path: string;
  readonly problem: Problem;
  readonly reason: string;
}

export interface CompareOptions {
  /**
   * Paths where another body of the same endpoint shows null or `[]` (PHP's empty map): there
   * the simulator may send that too.
   */
  readonly alsoSeen?: ReadonlyMap<string, ReadonlySet<"null" | "empty">>;
  /** Every element shape of an evidence array must be matched by some element the simulator sends. */
  readonly cover?: boolean;
  readonly allowed?: readonly Allowed[];
}

type Kind = "null" | "boolean" | "number" | "string" | "array" | "object";

export function kindOf(value: unknown): Kind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const type = typeof value;
  if (type === "boolean" || type === "number" || type === "string") return type;
  if (type === "object") return "object";
  throw new Error(`not a JSON value: ${String(value)}`);
}

const child = (path: string, key: string): string => (path === "" ? key : `${path}.${key}`);

/** Where evidence bodies show null or an empty array, by path. */
export function nullsAndEmpties(bodies: readonly unknown[]): Map<string, Set<"null" | "empty">> {
  const out = new Map<string, Set<"null" | "empty">>();
  const mark = (path: string, what: "null" | "empty") => {
    const set = out.get(path) ?? new Set();
    set.add(what);
    out.set(path, set);
  };
  const walk = (value: unknown, path: string): void => {
    const kind = kindOf(value);
    if (kind === "null") mark(path, "null");
    if (kind === "array") {
      const items = value as unknown[];
      if (items.length === 0) mark(path, "empty");
      for (const item of items) walk(item, `${path}[]`);
    }
    if (kind === "object") {
      for (const [key, inner] of Object.entries(value as Record<string, unknown>)) walk(inner, child(path, key));
    }
  };
  for (const body of bodies) walk(body, "");
  return out;
}

export interface Comparison {
  /** Differences the allow-list does not excuse. */
  readonly differences: Difference[];
  /** Allow-list entries that excused nothing: an allow-list wider than the differences. */
  readonly unused: Allowed[];
}

/** The differences between the evidence's shape and the simulator's answer. */
export function compareShape(evidence: unknown, actual: unknown, options: CompareOptions = {}): Comparison {
  const allowed = options.allowed ?? [];
  const used = new Set<Allowed>();
  const all: Difference[] = [];
  walk(evidence, actual, "", { ...options, allowed: [] }, all, (difference) => {
    const entry = allowed.find((one) => one.path === difference.path && one.problem === difference.problem);
    if (entry) used.add(entry);
    return entry !== undefined;
  });
  return { differences: all, unused: allowed.filter((entry) => !used.has(entry)) };
}

type Excuse = (difference: Difference) => boolean;

function walk(
  expected: unknown,
  actual: unknown,
  path: string,
  options: CompareOptions,
  out: Difference[],
  excuse: Excuse,
): void {
  const push = (difference: Difference) => {
    if (!excuse(difference)) out.push(difference);
  };
  const want = kindOf(expected);
  const got = kindOf(actual);
  const seen = options.alsoSeen?.get(path);
  // Null in the evidence: the service may send null there, or a value.
  if (want === "null") return;
  if (got === "null") {
    if (!seen?.has("null")) push({ path, problem: "type", detail: `null where the evidence has ${want}` });
    return;
  }
  if (want === "array" && (expected as unknown[]).length === 0) {
    // An empty list, or PHP's empty map: the evidence does not show what it holds.
    if (got !== "array" && got !== "object")
      push({ path, problem: "type", detail: `${got} where the evidence has []` });
    return;
  }
  if (got === "array" && (actual as unknown[]).length === 0 && want === "object" && seen?.has("empty")) return;
  if (want !== got) {
    push({ path, problem: "type", detail: `${got} where the evidence has ${want}` });
    return;
  }
  if (want === "array") {
    compareArrays(expected as unknown[], actual as unknown[], path, options, out, excuse);
    return;
  }
  if (want === "object") {
    compareObjects(expected as Record<string, unknown>, actual as Record<string, unknown>, path, options, out, excuse);
  }
}

function compareObjects(
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
  path: string,
  options: CompareOptions,
  out: Difference[],
  excuse: Excuse,
): void {
  for (const key of Object.keys(expected)) {
    if (!(key in actual)) {
      const difference: Difference = { path: child(path, key), problem: "missing", detail: "the evidence has it" };
      if (!excuse(difference)) out.push(difference);
    }
  }
  for (const key of Object.keys(actual)) {
    if (!(key in expected)) {
      const difference: Difference = {
        path: child(path, key),
        problem: "extra",
        detail: "the evidence does not have it",
      };
      if (!excuse(difference)) out.push(difference);
      continue;
    }
    walk(expected[key], actual[key], child(path, key), options, out, excuse);
  }
}

/** Each element sent must match one of the evidence's element shapes; with `cover`, each of those must be sent. */
function compareArrays(
  expected: readonly unknown[],
  actual: readonly unknown[],
  path: string,
  options: CompareOptions,
  out: Difference[],
  excuse: Excuse,
): void {
  const itemPath = `${path}[]`;
  const differencesOf = (want: unknown, got: unknown): Difference[] => {
    const found: Difference[] = [];
    walk(want, got, itemPath, options, found, excuse);
    return found;
  };
  for (const item of actual) {
    const tried = expected.map((want) => differencesOf(want, item));
    if (tried.some((differences) => differences.length === 0)) continue;
    const closest = tried.reduce((best, next) => (next.length < best.length ? next : best));
    out.push(...closest);
  }
  if (options.cover && actual.length > 0) {
    expected.forEach((want, index) => {
      if (!actual.some((item) => differencesOf(want, item).length === 0)) {
        out.push({
          path: itemPath,
          problem: "missing",
          detail: `no element shaped like the evidence's element ${index}`,
        });
      }
    });
  }
}
