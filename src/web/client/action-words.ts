/** A rule's action line (`preset timed-charge {"enabled":true,...}`) in a few plain words. */
export function actionWords(action: string): string {
  const preset = /^preset (\S+) (\{.*\})( on \S+)?$/.exec(action);
  if (preset) {
    const name = (preset[1] ?? "").replaceAll("-", " ");
    let values: Record<string, unknown> = {};
    try {
      values = JSON.parse(preset[2] ?? "{}") as Record<string, unknown>;
    } catch {
      return action;
    }
    if (values.enabled === false) return `${name} off${preset[3] ?? ""}`;
    const slots = Array.isArray(values.slots) ? (values.slots as Record<string, unknown>[]) : [];
    const limit = slots.map((slot) => slot.percent_limit).find((value) => value !== undefined && value !== "");
    return `${name}${limit === undefined ? "" : ` to ${String(limit)}%`}${preset[3] ?? ""}`;
  }
  const setting = /^setting (.+) = (.+)$/.exec(action);
  if (setting) return `set ${setting[1]} to ${setting[2]}`;
  const charger = /^charger (\S+)/.exec(action);
  if (charger) return `car charger: ${(charger[1] ?? "").replaceAll("-", " ")}`;
  return action;
}
