import { checkParsed } from "./check.js";
import { parseRules } from "./parse.js";
import { isPlainObject } from "./values.js";

interface Located {
  readonly path: string;
  readonly value: unknown;
}

/** Walks a dotted path; `*` stands for every index of a list or every key of an object. */
function locate(value: unknown, segments: readonly string[], path: string): Located[] {
  const [segment, ...rest] = segments;
  if (segment === undefined) return [{ path, value }];
  const join = (key: string): string => (path === "" ? key : `${path}.${key}`);
  if (segment === "*") {
    if (Array.isArray(value)) return value.flatMap((item, index) => locate(item, rest, join(String(index))));
    if (isPlainObject(value)) return Object.entries(value).flatMap(([key, item]) => locate(item, rest, join(key)));
    return [];
  }
  const child = Array.isArray(value) ? value[Number(segment)] : isPlainObject(value) ? value[segment] : undefined;
  return locate(child, rest, join(segment));
}

/**
 * Laravel-style validation of a request body. Keys of `spec` are dotted paths that may hold `*`
 * (`slots.*.start_time`); a `*` with nothing under it checks nothing. Returns the problems by the
 * concrete path (`slots.0.start_time`, or `slots.2.start_time` for slots keyed by number),
 * each naming the field: `reserve_percent must be between 4 and 100`. Empty when valid.
 */
export function checkFields(
  input: Readonly<Record<string, unknown>>,
  spec: Readonly<Record<string, readonly string[]>>,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [pattern, rules] of Object.entries(spec)) {
    const parsed = parseRules(rules);
    for (const { path, value } of locate(input, pattern.split("."), "")) {
      const { problems } = checkParsed(value, parsed);
      if (problems.length === 0) continue;
      const messages = problems.map((problem) => `${path} ${problem}`);
      errors[path] = [...(errors[path] ?? []), ...messages];
    }
  }
  return errors;
}
