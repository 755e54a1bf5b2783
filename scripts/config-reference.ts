// npm run docs:config: rewrites README.md's configuration reference from the zod schema.
import { withConfigReference } from "../src/config/reference.js";
import { updateGenerated } from "./generated-file.js";

updateGenerated("README.md", (readme) => withConfigReference(readme), "configuration reference", "docs:config");
