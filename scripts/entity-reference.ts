// npm run docs:entities: writes docs/entities.md from the simulator's demo house (started
// in-process on a free port).
import { demoEntityReference } from "./entity-reference-model.js";
import { updateGenerated } from "./generated-file.js";

const reference = await demoEntityReference();
updateGenerated("docs/entities.md", () => reference, "entity reference", "docs:entities");
