// npm run docs:cli: rewrites README.md's CLI reference from the commander program.
import { withCliReference } from "../src/cli/reference.js";
import { updateGenerated } from "./generated-file.js";

updateGenerated("README.md", (readme) => withCliReference(readme), "CLI reference", "docs:cli");
