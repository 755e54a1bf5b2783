/**
 * PHP date formats (`H:i`, `Y-m-d H:i:s`) as the service's `date_format` rule reads them: the
 * value must be exactly what PHP would print for some moment, so `05:30` passes `H:i` while
 * `5:30` and `24:00` do not.
 */

const DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

interface Token {
  readonly pattern: string;
  /** The group that carries a date part to check against the calendar. */
  readonly group?: "day" | "month" | "year" | "shortYear" | "monthName";
  /** How the token reads in a hint such as `HH:mm`. */
  readonly hint: string;
  readonly part: "date" | "time" | "other";
}

const TOKENS: Readonly<Record<string, Token>> = {
  d: { pattern: "0[1-9]|[12]\\d|3[01]", group: "day", hint: "DD", part: "date" },
  j: { pattern: "[1-9]|[12]\\d|3[01]", group: "day", hint: "D", part: "date" },
  D: { pattern: DAY_NAMES.map((day) => day.slice(0, 3)).join("|"), hint: "Mon", part: "date" },
  l: { pattern: DAY_NAMES.join("|"), hint: "Monday", part: "date" },
  S: { pattern: "st|nd|rd|th", hint: "th", part: "date" },
  N: { pattern: "[1-7]", hint: "1-7", part: "date" },
  w: { pattern: "[0-6]", hint: "0-6", part: "date" },
  z: { pattern: "\\d|[1-9]\\d|[12]\\d\\d|3[0-5]\\d|36[0-5]", hint: "day of year", part: "date" },
  F: { pattern: MONTH_NAMES.join("|"), group: "monthName", hint: "January", part: "date" },
  M: {
    pattern: MONTH_NAMES.map((month) => month.slice(0, 3)).join("|"),
    group: "monthName",
    hint: "Jan",
    part: "date",
  },
  m: { pattern: "0[1-9]|1[0-2]", group: "month", hint: "MM", part: "date" },
  n: { pattern: "[1-9]|1[0-2]", group: "month", hint: "M", part: "date" },
  Y: { pattern: "\\d{4}", group: "year", hint: "YYYY", part: "date" },
  y: { pattern: "\\d{2}", group: "shortYear", hint: "YY", part: "date" },
  a: { pattern: "am|pm", hint: "am/pm", part: "time" },
  A: { pattern: "AM|PM", hint: "AM/PM", part: "time" },
  g: { pattern: "[1-9]|1[0-2]", hint: "h", part: "time" },
  h: { pattern: "0[1-9]|1[0-2]", hint: "hh", part: "time" },
  G: { pattern: "\\d|1\\d|2[0-3]", hint: "H", part: "time" },
  H: { pattern: "[01]\\d|2[0-3]", hint: "HH", part: "time" },
  i: { pattern: "[0-5]\\d", hint: "mm", part: "time" },
  s: { pattern: "[0-5]\\d", hint: "ss", part: "time" },
  v: { pattern: "\\d{3}", hint: "SSS", part: "time" },
  u: { pattern: "\\d{6}", hint: "SSSSSS", part: "time" },
  e: { pattern: "UTC|Z|[A-Za-z_]+(?:/[A-Za-z_+\\-]+)+|[+-]\\d{2}:\\d{2}", hint: "time zone", part: "other" },
  T: { pattern: "[A-Z]{1,5}|[+-]\\d{2}:\\d{2}", hint: "zone", part: "other" },
  O: { pattern: "[+-]\\d{4}", hint: "+hhmm", part: "other" },
  P: { pattern: "[+-]\\d{2}:\\d{2}", hint: "+hh:mm", part: "other" },
  p: { pattern: "Z|[+-]\\d{2}:\\d{2}", hint: "Z or +hh:mm", part: "other" },
  U: { pattern: "-?\\d+", hint: "Unix seconds", part: "date" },
};

interface Compiled {
  readonly regex: RegExp;
  readonly hint: string;
  readonly parts: ReadonlySet<Token["part"]>;
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

const cache = new Map<string, Compiled>();

function compile(format: string): Compiled {
  const cached = cache.get(format);
  if (cached) return cached;
  let pattern = "";
  let hint = "";
  const parts = new Set<Token["part"]>();
  const used = new Set<string>();
  for (let index = 0; index < format.length; index++) {
    const char = format.charAt(index);
    if (char === "\\") {
      const next = format.charAt(++index);
      pattern += escapeRegex(next);
      hint += next;
      continue;
    }
    // `!` and `|` reset fields in PHP and match no text.
    if (char === "!" || char === "|") continue;
    const token = TOKENS[char];
    if (!token) {
      pattern += escapeRegex(char);
      hint += char;
      continue;
    }
    // A repeated date part cannot be named twice; the first occurrence is the one checked.
    const group = token.group && !used.has(token.group) ? token.group : undefined;
    if (group) used.add(group);
    pattern += group ? `(?<${group}>${token.pattern})` : `(?:${token.pattern})`;
    hint += token.hint;
    parts.add(token.part);
  }
  const compiled = { regex: new RegExp(`^${pattern}$`), hint, parts };
  cache.set(format, compiled);
  return compiled;
}

function daysInMonth(month: number, year: number | undefined): number {
  if (month === 2) {
    if (year === undefined) return 29;
    return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Whether `value` is exactly what PHP prints for some moment with this format. */
export function matchesDateFormat(value: string, format: string): boolean {
  const match = compile(format).regex.exec(value);
  if (!match) return false;
  const groups = match.groups ?? {};
  const day = groups.day === undefined ? undefined : Number(groups.day);
  const monthName = groups.monthName;
  const month =
    groups.month !== undefined
      ? Number(groups.month)
      : monthName !== undefined
        ? MONTH_NAMES.findIndex((name) => name.startsWith(monthName)) + 1
        : undefined;
  const year =
    groups.year !== undefined
      ? Number(groups.year)
      : groups.shortYear !== undefined
        ? 2000 + Number(groups.shortYear)
        : undefined;
  if (day !== undefined && month !== undefined && day > daysInMonth(month, year)) return false;
  return true;
}

/** `H:i` → `HH:mm`; `Y-m-d H:i:s` → `YYYY-MM-DD HH:mm:ss`. */
export function formatHint(format: string): string {
  return compile(format).hint;
}

/** `a time as HH:mm`, `a date as YYYY-MM-DD`, `a date and time as ...`. */
export function describeDateFormat(format: string): string {
  const { hint, parts } = compile(format);
  const date = parts.has("date");
  const time = parts.has("time");
  const what = date && time ? "a date and time" : date ? "a date" : time ? "a time" : "a value";
  return `${what} as ${hint}`;
}
