/**
 * The spec's contextual menu (MCP connection options), for one server URL. Printed by
 * `svc-mcp connect` and published in `/.well-known/mcp`. `svc-mcp connect --stdio` prints the
 * same four for a server the editor starts itself (`stdioConnectOptions`).
 */
export interface ConnectOption {
  readonly id: "mcp" | "add-mcp" | "install-editor-1" | "install-editor-2";
  readonly label: string;
  readonly value: string;
}

/** Editor order of `install-editor-1` and `install-editor-2`. */
export const MENU_EDITORS = ["Cursor", "VS Code"] as const;

/** A server an editor starts itself: the program and its arguments. */
export interface StdioServer {
  readonly command: string;
  readonly args: readonly string[];
}

export function connectOptions(url: string, serverName: string): ConnectOption[] {
  return [
    { id: "mcp", label: "Copy the MCP server URL", value: url },
    // Named: add-mcp would otherwise name the server after the URL's host (`127` for 127.0.0.1).
    { id: "add-mcp", label: "Copy the add-mcp install command", value: `npx add-mcp ${url} --name ${serverName}` },
    { id: "install-editor-1", label: `Install in ${MENU_EDITORS[0]}`, value: cursorInstallLink({ url }, serverName) },
    { id: "install-editor-2", label: `Install in ${MENU_EDITORS[1]}`, value: vscodeInstallLink({ type: "http", url }, serverName) },
  ];
}

/**
 * The menu for a server started over stdio: `mcp` is the command line itself, `add-mcp` gives
 * add-mcp that command line (add-mcp installs a command as a stdio server), the links carry the
 * command and its arguments.
 */
export function stdioConnectOptions(server: StdioServer, serverName: string): ConnectOption[] {
  const line = commandLine(server);
  return [
    { id: "mcp", label: "Copy the command that starts the MCP server", value: line },
    { id: "add-mcp", label: "Copy the add-mcp install command", value: `npx add-mcp ${shellQuote(line)} --name ${serverName}` },
    { id: "install-editor-1", label: `Install in ${MENU_EDITORS[0]}`, value: cursorInstallLink({ command: server.command, args: [...server.args] }, serverName) },
    { id: "install-editor-2", label: `Install in ${MENU_EDITORS[1]}`, value: vscodeInstallLink({ type: "stdio", command: server.command, args: [...server.args] }, serverName) },
  ];
}

/** Cursor's install deeplink: the server's mcp.json entry, base64-encoded, under `config`. */
export function cursorInstallLink(entry: Record<string, unknown>, serverName: string): string {
  const config = Buffer.from(JSON.stringify(entry)).toString("base64");
  return `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(serverName)}&config=${encodeURIComponent(config)}`;
}

/** VS Code's install link: the server's definition as URL-encoded JSON. */
export function vscodeInstallLink(entry: Record<string, unknown>, serverName: string): string {
  return `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name: serverName, ...entry }))}`;
}

/** The command as a POSIX shell would take it: arguments with spaces or quotes are single-quoted. */
export function commandLine(server: StdioServer): string {
  return [server.command, ...server.args].map(shellQuote).join(" ");
}

/** One shell word: as it is when it needs no quoting, else single-quoted. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
