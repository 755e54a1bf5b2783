import { z } from "zod";

const product = z
  .string()
  .regex(
    /^[A-Z0-9]+(-[A-Z0-9]+)+$/,
    "expected an Octopus product code in capitals, like AGILE-24-10-01, GO-VAR-22-10-14 or COSY-22-12-08",
  );

/** `--tariff NAME:IMPORT_PRODUCT[+EXPORT_PRODUCT]`, e.g. agile:AGILE-24-10-01+AGILE-OUTGOING-19-05-13. */
export const tariffSpecSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9-]*$/, "expected a short name in lower case, like agile or go"),
  importProduct: product,
  /** Left out: the configured export tariff's prices (none without one). */
  exportProduct: product.optional(),
});
export type TariffSpec = z.infer<typeof tariffSpecSchema>;

/** The spec, or what is wrong with it. */
export function parseTariffSpec(text: string): TariffSpec | string {
  const match = /^([^:]+):([^+]+)(?:\+(.+))?$/.exec(text.trim());
  if (!match)
    return "expected NAME:PRODUCT or NAME:PRODUCT+EXPORT_PRODUCT, e.g. agile:AGILE-24-10-01 or go:GO-VAR-22-10-14";
  const parsed = tariffSpecSchema.safeParse({
    name: match[1],
    importProduct: match[2],
    ...(match[3] === undefined ? {} : { exportProduct: match[3] }),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return `${String(issue?.path[0] ?? "spec")}: ${issue?.message ?? "is not valid"}`;
}
