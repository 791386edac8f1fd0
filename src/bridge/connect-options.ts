/**
 * The spec's contextual menu (MCP connection options), for one server URL. Printed by
 * `svc-mcp connect` and published in `/.well-known/mcp`.
 */
export interface ConnectOption {
  readonly id: "mcp" | "add-mcp" | "install-editor-1" | "install-editor-2";
  readonly label: string;
  readonly value: string;
}

/** Editor order of `install-editor-1` and `install-editor-2`. */
export const MENU_EDITORS = ["Cursor", "VS Code"] as const;

export function connectOptions(url: string, serverName: string): ConnectOption[] {
  return [
    { id: "mcp", label: "Copy the MCP server URL", value: url },
    // Named: add-mcp would otherwise name the server after the URL's host (`127` for 127.0.0.1).
    { id: "add-mcp", label: "Copy the add-mcp install command", value: `npx add-mcp ${url} --name ${serverName}` },
    { id: "install-editor-1", label: `Install in ${MENU_EDITORS[0]}`, value: cursorInstallLink(url, serverName) },
    { id: "install-editor-2", label: `Install in ${MENU_EDITORS[1]}`, value: vscodeInstallLink(url, serverName) },
  ];
}

/** Cursor's install deeplink: the server's mcp.json entry, base64-encoded, under `config`. */
export function cursorInstallLink(url: string, serverName: string): string {
  const config = Buffer.from(JSON.stringify({ url })).toString("base64");
  return `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(serverName)}&config=${encodeURIComponent(config)}`;
}

/** VS Code's install link: the server's definition as URL-encoded JSON. */
export function vscodeInstallLink(url: string, serverName: string): string {
  return `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name: serverName, type: "http", url }))}`;
}
