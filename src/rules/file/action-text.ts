import { actionKind } from "./action-schema.js";
import type { Action } from "./schema.js";
import { renderTemplates, type TemplateContext } from "./templates.js";

/** One line per action, as the engine would send it. */
export function describeAction(action: Action, context: TemplateContext): string {
  const kind = actionKind(action);
  const json = (value: unknown) => JSON.stringify(renderTemplates(value ?? {}, context));
  switch (kind) {
    case "preset":
      return `preset ${action.preset} ${json(action.with)}${action.inverter ? ` on ${action.inverter}` : ""}`;
    case "setting":
      return `setting ${action.setting} = ${json(action.value)}${action.inverter ? ` on ${action.inverter}` : ""}`;
    case "charger":
      return `charger ${action.charger} ${json(action.with)}${action.uuid ? ` on ${action.uuid}` : ""}`;
    case "notify": {
      const filled = renderTemplates({ title: action.notify?.title, body: action.notify?.body }, context) as {
        title: string;
      };
      return `notify "${filled.title}"`;
    }
    case "snapshot":
      return `snapshot ${action.snapshot}${action.name ? ` ${action.name}` : ""}`;
  }
}
