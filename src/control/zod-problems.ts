import { z } from "zod";

const property = z.object({
  type: z.string().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  exclusiveMinimum: z.number().optional(),
  exclusiveMaximum: z.number().optional(),
  minLength: z.number().optional(),
  maxLength: z.number().optional(),
  enum: z.array(z.unknown()).optional(),
});
type Property = z.infer<typeof property>;

const objectSchema = z.object({ properties: z.record(z.string(), z.unknown()).optional() });

/** The request's top-level fields as JSON Schema, to say what each one allows. */
function propertiesOf(schema: z.ZodType): Record<string, Property> {
  try {
    const json = objectSchema.safeParse(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }));
    if (!json.success) return {};
    const out: Record<string, Property> = {};
    for (const [key, value] of Object.entries(json.data.properties ?? {})) {
      const parsed = property.safeParse(value);
      if (parsed.success) out[key] = parsed.data;
    }
    return out;
  } catch {
    return {};
  }
}

function numberRange(p: Property): string {
  const low = p.minimum ?? p.exclusiveMinimum;
  const high = p.maximum ?? p.exclusiveMaximum;
  if (low !== undefined && high !== undefined) return ` between ${low} and ${high}`;
  if (low !== undefined) return ` of at least ${low}`;
  if (high !== undefined) return ` of at most ${high}`;
  return "";
}

/** `a number between 6 and 32`, `one of A, B`, `true or false`; undefined when a plain word would not help. */
function allowed(p: Property | undefined): string | undefined {
  if (!p) return undefined;
  if (p.enum) return `one of ${p.enum.map(String).join(", ")}`;
  switch (p.type) {
    case "number":
      return `a number${numberRange(p)}`;
    case "integer":
      return `a whole number${numberRange(p)}`;
    case "boolean":
      return "true or false";
    case "string":
      if (p.minLength !== undefined && p.maxLength !== undefined)
        return `text of ${p.minLength} to ${p.maxLength} characters`;
      return undefined;
    default:
      return undefined;
  }
}

/** A zod refusal of a request, field by field, naming what is allowed. */
export function describeIssues(error: z.ZodError, schema: z.ZodType): string {
  const properties = propertiesOf(schema);
  const fields = Object.keys(properties);
  return error.issues
    .map((issue) => {
      if (issue.code === "unrecognized_keys") {
        const known = fields.length === 0 ? "it takes no fields" : `its fields: ${fields.join(", ")}`;
        return `${issue.keys.join(", ")} ${issue.keys.length === 1 ? "is not a field" : "are not fields"} (${known})`;
      }
      const field = issue.path.map(String).join(".");
      const words = issue.path.length === 1 ? allowed(properties[field]) : undefined;
      if (words) return `${field} must be ${words}`;
      return field === "" ? issue.message : `${field}: ${issue.message}`;
    })
    .join("; ");
}
