import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  checkFields,
  checkValue,
  describeRules,
  parseRule,
  parseRules,
  splitRuleList,
  unknownRules,
} from "../../src/validation/index.js";

// A real Gen3 hybrid listing, from the Apache-2.0 project abedegno/givlocal
// (api/cloud-data/settings.json), via test/fixtures.
const LISTING = JSON.parse(
  readFileSync(new URL("../fixtures/inverter-settings.gen3-hybrid.json", import.meta.url), "utf8"),
) as { data: { id: number; name: string; validation_rules: string[] }[] };

const accepts = (rules: string[], ...values: unknown[]) => {
  for (const value of values)
    expect(checkValue(value, rules), `${JSON.stringify(value)} against ${rules}`).toMatchObject({
      ok: true,
      problems: [],
    });
};
const refuses = (rules: string[], ...values: unknown[]) => {
  for (const value of values) {
    const result = checkValue(value, rules);
    expect(result.ok, `${JSON.stringify(value)} against ${rules}`).toBe(false);
    expect(result.problems.length).toBeGreaterThan(0);
  }
};
const problems = (value: unknown, rules: string[]) => checkValue(value, rules).problems;

describe("parsing rule strings", () => {
  it("reads rules with arguments", () => {
    expect(parseRule("between:0,100")).toMatchObject({ kind: "between", min: 0, max: 100 });
    expect(parseRule("between:0.5,1.5")).toMatchObject({ kind: "between", min: 0.5, max: 1.5 });
    expect(parseRule("in:0,1,2")).toMatchObject({ kind: "in", values: ["0", "1", "2"] });
    expect(parseRule("date_format:H:i")).toMatchObject({ kind: "date_format", formats: ["H:i"] });
    expect(parseRule("date_format:Y-m-d H:i:s,Y-m-d,H:i")).toMatchObject({ formats: ["Y-m-d H:i:s", "Y-m-d", "H:i"] });
    expect(parseRule("min:4")).toMatchObject({ kind: "min", limit: 4 });
    expect(parseRule("max:-1.5")).toMatchObject({ kind: "max", limit: -1.5 });
    expect(parseRule("alpha:3")).toMatchObject({ kind: "alpha", length: 3 });
    expect(parseRule("hex:4")).toMatchObject({ kind: "hex", length: 4 });
    expect(parseRule("bitwise:7")).toMatchObject({ kind: "bitwise", bits: 7 });
    expect(parseRule("exact:100")).toMatchObject({ kind: "exact", value: "100" });
  });

  it("reads markers and data types, with their arguments", () => {
    for (const marker of ["optional", "required", "nullable", "writeonly"]) expect(parseRule(marker).kind).toBe(marker);
    expect(parseRule("decimal,2")).toMatchObject({ kind: "type", type: "decimal", precision: 2, list: "none" });
    expect(parseRule("integer,delimited")).toMatchObject({ kind: "type", type: "integer", list: "delimited" });
    expect(parseRule("integer[]")).toMatchObject({ kind: "type", type: "integer", list: "array" });
    expect(parseRule("ISO8601-date")).toMatchObject({ kind: "type", type: "ISO8601-date" });
    expect(parseRule("ISO8601-datetime")).toMatchObject({ kind: "type", type: "ISO8601-datetime" });
    expect(parseRule("datetime")).toMatchObject({ kind: "type", type: "datetime" });
    for (const type of ["string", "integer", "boolean", "object", "array", "numeric"]) {
      expect(parseRule(type)).toMatchObject({ kind: "type", type, list: "none" });
    }
  });

  it("reads a property rule whose own rules hold colons and commas", () => {
    expect(parseRule("property:start_time:date_format:H:i")).toMatchObject({
      kind: "property",
      property: "start_time",
      rules: [{ kind: "date_format", formats: ["H:i"] }],
    });
    expect(parseRule("property:percent_limit:numeric,between:0,100")).toMatchObject({
      property: "percent_limit",
      rules: [
        { kind: "type", type: "numeric" },
        { kind: "between", min: 0, max: 100 },
      ],
    });
    expect(parseRule("property:price:decimal,2,in:1.00,2.50")).toMatchObject({
      rules: [
        { kind: "type", type: "decimal", precision: 2 },
        { kind: "in", values: ["1.00", "2.50"] },
      ],
    });
    expect(parseRule("property:slot:property:start_time:date_format:H:i,G:i")).toMatchObject({
      rules: [{ kind: "property", property: "start_time", rules: [{ formats: ["H:i", "G:i"] }] }],
    });
  });

  it("splits a rule list on commas, keeping arguments with their rule", () => {
    expect(splitRuleList("numeric,between:0,100")).toEqual(["numeric", "between:0,100"]);
    expect(splitRuleList("required,integer,delimited,in:1,2,3")).toEqual(["required", "integer,delimited", "in:1,2,3"]);
    expect(splitRuleList("decimal,2,min:0")).toEqual(["decimal,2", "min:0"]);
  });

  it("keeps what it cannot read as unknown, and never throws", () => {
    const rules = [
      "regex:/^a$/",
      "between:a,b",
      "min:",
      "alpha:0",
      "property:",
      "decimal,x",
      "required:yes",
      "sometimes",
    ];
    expect(parseRules(rules).map((rule) => rule.kind)).toEqual(Array(rules.length).fill("unknown"));
    expect(unknownRules(["required", "foo:1", "property:x:bar,integer"])).toEqual(["foo:1", "bar"]);
    const result = checkValue("anything", ["foo:1", "string"]);
    expect(result).toEqual({ ok: true, problems: [], unknownRules: ["foo:1"] });
  });

  it("reads every rule of the real 79-setting listing, knowing all of them", () => {
    expect(LISTING.data).toHaveLength(79);
    const all = LISTING.data.flatMap((setting) => setting.validation_rules);
    expect(new Set(all)).toEqual(
      new Set([
        "boolean",
        "date_format:H:i",
        "between:0,100",
        "between:4,100",
        "between:0,3600",
        "between:1,100",
        "writeonly",
        "exact:100",
        "in:0,1,2",
        "in:0,1,2,3",
      ]),
    );
    expect(unknownRules(all)).toEqual([]);
  });
});

describe("checking a value", () => {
  it("boolean: true, false, 1, 0 (and their digits), never the words", () => {
    accepts(["boolean"], true, false, 1, 0, "1", "0");
    refuses(["boolean"], "true", "false", "yes", 2, null, "", []);
    expect(problems("true", ["boolean"])).toEqual(["must be true or false"]);
  });

  it("date_format:H:i: two-digit hours 00-23 and minutes", () => {
    accepts(["date_format:H:i"], "05:30", "00:00", "23:59");
    refuses(["date_format:H:i"], "24:00", "5:3", "5:30", "05:3", "05:60", "05:30:00", " 05:30", 530, null);
    expect(problems("24:00", ["date_format:H:i"])).toEqual(["must be a time as HH:mm"]);
  });

  it("date_format with other codes, literals and several formats", () => {
    const rules = ["date_format:Y-m-d H:i:s,Y-m-d"];
    accepts(rules, "2024-02-29 23:59:59", "2024-02-29");
    refuses(rules, "2023-02-29", "2024-04-31", "2024-13-01", "2024-1-01", "2024-02-29T10:00:00");
    expect(problems("x", rules)).toEqual(["must be a date and time as YYYY-MM-DD HH:mm:ss or a date as YYYY-MM-DD"]);
    accepts(["date_format:G:i"], "5:30", "17:05");
    refuses(["date_format:G:i"], "05:30");
    accepts(["date_format:j/n/y"], "1/2/24", "31/12/99");
    refuses(["date_format:j/n/y"], "01/02/24", "31/4/24");
    accepts(["date_format:H\\hi"], "05h30");
    accepts(["date_format:H:i,H:i:s"], "05:30", "05:30:15");
  });

  it("between: numbers and numeric text, decimals included; untyped it is always a number", () => {
    accepts(["between:4,100"], 4, 100, 50.5, "50", "4.0");
    refuses(["between:4,100"], 3, 3.99, 100.01, "abc", true, null);
    accepts(["between:0.5,1.5"], 0.5, 1, "1.25", 1.5);
    refuses(["between:0.5,1.5"], 0.49, 1.51);
    expect(problems(3, ["between:4,100"])).toEqual(["must be between 4 and 100"]);
  });

  it("min and max measure numbers, text length or list size by the type", () => {
    accepts(["min:4"], 4, "5");
    refuses(["min:4"], 3);
    accepts(["max:10"], 10, -1);
    refuses(["max:10"], 11);
    accepts(["string", "max:3"], "abc", "123", "ééé");
    refuses(["string", "max:3"], "abcd", "1234");
    expect(problems("abcd", ["string", "max:3"])).toEqual(["must be at most 3 characters long"]);
    accepts(["string[]", "min:1", "max:2"], ["a"], ["a", "b"]);
    refuses(["string[]", "min:1", "max:2"], [], ["a", "b", "c"]);
    expect(problems([], ["array", "min:1"])).toEqual(["must have at least 1 item"]);
    expect(problems("x", ["string", "between:2,4"])).toEqual(["must be between 2 and 4 characters long"]);
  });

  it("numeric, integer and decimal", () => {
    accepts(["numeric"], 1, -1.5, "2", "-3.25", "1e3");
    refuses(["numeric"], "abc", "", true, Number.NaN, Number.POSITIVE_INFINITY, [1]);
    accepts(["integer"], 0, -7, 42, "42", "-3");
    refuses(["integer"], 1.5, "1.5", "05", "abc", true, "");
    accepts(["decimal,2"], 1, 1.5, 1.25, "3.10");
    refuses(["decimal,2"], 1.255, "3.105", "x");
    accepts(["decimal"], 1.23456);
  });

  it("string, object, array and type[]", () => {
    accepts(["string"], "", "x");
    refuses(["string"], 1, true, null, {});
    accepts(["object"], {}, { a: 1 }, []);
    refuses(["object"], [1], "x", 1);
    accepts(["array"], [], [1, "a"], { 1: { start_time: "05:00" } });
    refuses(["array"], "x", 1);
    accepts(["integer[]"], [], [1, 2, "3"]);
    refuses(["integer[]"], [1, "x"], [1.5], "1,2");
    expect(problems([1, "x"], ["integer[]"])).toEqual(["must be a list of whole numbers"]);
  });

  it("type,delimited", () => {
    accepts(["integer,delimited"], "1,2,3", "4", 4, "");
    refuses(["integer,delimited"], "1,x", "1.5", [1, 2]);
    accepts(["string,delimited"], "a,b");
  });

  it("ISO8601-date, ISO8601-datetime and datetime", () => {
    accepts(["ISO8601-date"], "2024-02-29");
    refuses(["ISO8601-date"], "2023-02-29", "2024-2-1", "2024-02-29T00:00:00Z", 20240229);
    accepts(
      ["ISO8601-datetime"],
      "2024-02-29T10:15:00Z",
      "2024-02-29T10:15:00.123Z",
      "2024-02-29T10:15:00+01:00",
      "2024-02-29T10:15",
    );
    refuses(["ISO8601-datetime"], "2024-02-29 10:15:00", "2024-02-30T10:15:00Z", "2024-02-29T24:00:00Z");
    accepts(["datetime"], "2024-02-29 10:15:00");
    refuses(["datetime"], "2024-02-29T10:15:00", "2024-02-29 10:15", "2024-02-29 24:00:00");
  });

  it("alpha:length: letters or digits, exactly that many", () => {
    accepts(["alpha:3"], "abc", "A1b", "123", "äöü");
    refuses(["alpha:3"], "ab", "abcd", "a-b", "a b", 123);
    expect(problems("ab", ["alpha:3"])).toEqual(["must be exactly 3 letters or digits"]);
  });

  it("hex:length", () => {
    accepts(["hex:4"], "00ff", "ABCD", "1a2B");
    refuses(["hex:4"], "0fff0", "fff", "zzzz", "0x0f", 1234);
    expect(problems("fff", ["hex:4"])).toEqual(["must be exactly 4 hexadecimal digits (0-9, A-F)"]);
  });

  it("bitwise:bits: empty or comma-separated numbers from 1 to bits", () => {
    accepts(["bitwise:4"], "", "1,3", "4", "1,2,3,4", 2);
    refuses(["bitwise:4"], "5", "0", "1,5", "a", "1,,3", true, null);
    expect(problems("5", ["bitwise:4"])).toEqual(["must be empty, or a comma-separated list of numbers from 1 to 4"]);
  });

  it("in: one of the values, compared as text; booleans are not numbers", () => {
    accepts(["in:0,1,2,3"], 0, 3, "2");
    refuses(["in:0,1,2,3"], 4, "4", 1.5, true, "01");
    accepts(["in:Eco,Boost"], "Eco");
    refuses(["in:Eco,Boost"], "eco");
    expect(problems(4, ["in:0,1,2,3"])).toEqual(["must be one of 0, 1, 2, 3"]);
  });

  it("exact and writeonly (83 Restart Inverter)", () => {
    accepts(["writeonly", "exact:100"], 100, "100", 100.0);
    refuses(["writeonly", "exact:100"], 99, "1e2x", true);
    expect(problems(99, ["writeonly", "exact:100"])).toEqual(["must be exactly 100"]);
  });

  it("property:name:rules checks one property of an object", () => {
    const rules = [
      "object",
      "property:start_time:required,date_format:H:i",
      "property:percent_limit:numeric,between:0,100",
    ];
    accepts(rules, { start_time: "05:30" }, { start_time: "05:30", percent_limit: "50" });
    expect(problems({ start_time: "5:30", percent_limit: 150 }, rules)).toEqual([
      "start_time must be a time as HH:mm",
      "percent_limit must be between 0 and 100",
    ]);
    expect(problems({}, rules)).toEqual(["start_time is required"]);
    expect(problems("x", ["property:a:integer"])).toEqual(["must be an object with a"]);
  });

  it("required, optional and nullable", () => {
    expect(checkValue(undefined, ["integer"]).ok).toBe(true);
    expect(checkValue(undefined, ["optional", "integer"]).ok).toBe(true);
    expect(problems(undefined, ["required", "integer"])).toEqual(["is required"]);
    for (const empty of [null, "", "  ", [], {}]) expect(problems(empty, ["required"])).toEqual(["is required"]);
    expect(checkValue(null, ["nullable", "integer"]).ok).toBe(true);
    expect(checkValue(null, ["optional", "boolean"]).ok).toBe(true);
    expect(checkValue(null, ["integer"]).ok).toBe(false);
  });

  it("a value of the wrong type gets the whole description, not a pile of problems", () => {
    expect(problems("x", ["required", "integer", "between:0,4"])).toEqual(["must be a whole number between 0 and 4"]);
    expect(problems(7, ["required", "integer", "between:0,4"])).toEqual(["must be between 0 and 4"]);
    expect(problems("2", ["integer", "in:0,1"])).toEqual(["must be one of 0, 1"]);
  });
});

describe("checkFields", () => {
  const spec = {
    enabled: ["optional", "boolean"],
    slots: ["optional", "array", "max:10"],
    "slots.*.start_time": ["optional", "date_format:H:i"],
    "slots.*.percent_limit": ["optional", "integer", "between:0,100"],
    reserve_percent: ["required", "integer", "between:4,100"],
  };

  it("is empty when the body is valid", () => {
    expect(checkFields({ reserve_percent: 4, slots: [{ start_time: "05:30" }] }, spec)).toEqual({});
  });

  it("names each failing field by its concrete path, list or object-keyed", () => {
    expect(
      checkFields(
        { enabled: "true", slots: [{ start_time: "05:30" }, { start_time: "24:00", percent_limit: 101 }] },
        spec,
      ),
    ).toEqual({
      enabled: ["enabled must be true or false"],
      "slots.1.start_time": ["slots.1.start_time must be a time as HH:mm"],
      "slots.1.percent_limit": ["slots.1.percent_limit must be between 0 and 100"],
      reserve_percent: ["reserve_percent is required"],
    });
    expect(checkFields({ reserve_percent: 50, slots: { 2: { start_time: "5:30" } } }, spec)).toEqual({
      "slots.2.start_time": ["slots.2.start_time must be a time as HH:mm"],
    });
  });

  it("checks nothing under a wildcard with nothing under it, and walks plain nested paths", () => {
    expect(checkFields({ reserve_percent: 4, slots: "x" }, { ...spec, "slots.*.start_time": ["required"] })).toEqual({
      slots: ["slots must be a list with at most 10 items"],
    });
    expect(checkFields({}, { "a.b": ["required"] })).toEqual({ "a.b": ["a.b is required"] });
    expect(checkFields({ a: { b: 1 } }, { "a.b": ["required", "string"] })).toEqual({ "a.b": ["a.b must be text"] });
    expect(checkFields({ list: ["x", 2] }, { "list.*": ["string"] })).toEqual({ "list.1": ["list.1 must be text"] });
  });
});

describe("describeRules", () => {
  it.each([
    [["boolean"], "true or false"],
    [["between:4,100"], "a number between 4 and 100"],
    [["required", "integer", "between:4,100"], "a whole number between 4 and 100"],
    [["date_format:H:i"], "a time as HH:mm"],
    [["date_format:H:i,H:i:s"], "a time as HH:mm or HH:mm:ss"],
    [["in:0,1,2,3"], "one of 0, 1, 2, 3"],
    [["writeonly", "exact:100"], "exactly 100 (write-only)"],
    [["required", "string", "max:32"], "text of at most 32 characters"],
    [["string[]", "min:1", "max:1000"], "a list of text values with 1 to 1000 items"],
    [["integer", "min:0"], "a whole number of at least 0"],
    [["decimal,2", "max:5"], "a number with at most 2 decimal places of at most 5"],
    [["integer,delimited"], "a comma-separated list of whole numbers"],
    [["bitwise:7"], "empty, or a comma-separated list of numbers from 1 to 7"],
    [["hex:4"], "4 hexadecimal digits"],
    [["alpha:3"], "3 letters or digits"],
    [["ISO8601-date"], "a date as YYYY-MM-DD"],
    [["nullable", "ISO8601-datetime"], "a date and time as YYYY-MM-DDThh:mm:ssZ, or null"],
    [["datetime"], "a date and time as YYYY-MM-DD hh:mm:ss"],
    [["object", "property:start_time:date_format:H:i"], "an object whose start_time is a time as HH:mm"],
    [["optional"], "any value"],
  ])("%j → %s", (rules, text) => {
    expect(describeRules(rules)).toBe(text);
  });

  it("describes every setting of the real listing", () => {
    const described = new Set(LISTING.data.map((setting) => describeRules(setting.validation_rules)));
    expect(described).toEqual(
      new Set([
        "true or false",
        "a time as HH:mm",
        "a number between 0 and 100",
        "a number between 4 and 100",
        "a number between 0 and 3600",
        "a number between 1 and 100",
        "exactly 100 (write-only)",
        "one of 0, 1, 2",
        "one of 0, 1, 2, 3",
      ]),
    );
  });
});
