import packageJson from "../package.json" with { type: "json" };

/** This svc-mcp's version (package.json): `svc-mcp --version`, and the MCP server's `serverInfo`. */
export const VERSION: string = packageJson.version;
