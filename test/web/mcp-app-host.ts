/**
 * A minimal MCP Apps host for the browser test (bundled by test/web/mcp-app.test.ts): the
 * official ext-apps `AppBridge` talking to the app in a sandboxed iframe over `postMessage`, its
 * tool calls handed to the test (`svcCallTool`), which sends them to the docs server with the
 * official SDK client. The app's document comes from the test too (`svcAppHtml`: `resources/read`).
 */
import type { CallToolRequest, CallToolResult } from "@modelcontextprotocol/client";
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

interface HostWindow {
  svcCallTool(params: CallToolRequest["params"]): Promise<CallToolResult>;
  svcAppHtml(): Promise<string>;
}
const host = window as unknown as HostWindow;

const iframe = document.createElement("iframe");
// As a host runs a view: scripts, no access to the host's origin.
iframe.setAttribute("sandbox", "allow-scripts");
iframe.style.width = "900px";
iframe.style.height = "1000px";
document.body.append(iframe);
const view = iframe.contentWindow;
if (view === null) throw new Error("the iframe has no window");

const bridge = new AppBridge(null, { name: "svc-test-host", version: "1.0.0" }, { serverTools: {} });
bridge.oncalltool = (params) => host.svcCallTool(params);
bridge.oninitialized = () => document.body.setAttribute("data-app-initialized", "true");
await bridge.connect(new PostMessageTransport(view, view));
iframe.srcdoc = await host.svcAppHtml();
