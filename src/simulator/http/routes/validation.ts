import { checkFields } from "../../../cloud/index.js";
import { type Answer, invalid } from "../envelope.js";
import { bodyObject } from "../route.js";

/**
 * Checks a body or query against rules in the reference's own rule language, answering 422
 * the way the service does; `undefined` means valid.
 */
export function validate(input: unknown, spec: Readonly<Record<string, readonly string[]>>): Answer | undefined {
  const errors = checkFields(bodyObject(input), spec);
  return Object.keys(errors).length > 0 ? invalid(errors) : undefined;
}

export function queryObject(query: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of query) {
    const arrayKey = /^(.+)\[\d*\]$/.exec(key)?.[1];
    if (arrayKey) {
      const current = out[arrayKey];
      out[arrayKey] = Array.isArray(current) ? [...current, value] : [value];
    } else {
      out[key] = value;
    }
  }
  return out;
}
