import { docsJsonSchema } from "../../config/docs-json/json-schema.js";
import { defineCommand } from "../command.js";

/** `svc-mcp schema`: the JSON Schema of docs.json, for editors. */
export const schemaCommand = defineCommand({
  command: "schema",
  describe: "Print the JSON Schema of docs.json (for editor validation and completion)",
  builder: (y) => y,
  run: async (_args, io) => {
    io.stdout(`${JSON.stringify(docsJsonSchema(), null, 2)}\n`);
    return 0;
  },
});
