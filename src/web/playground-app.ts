/**
 * The API playground as an MCP App (browser code, bundled into playground-app.js and inlined into
 * each app document: src/bridge/playground/app-document.ts). The same form and answer view as the
 * page (`playground-view.ts`); its Send is a call of the server's app-only tool through the host
 * (`tools/call`), which the server answers through its relay as the connection's reader.
 */
import { App } from "@modelcontextprotocol/ext-apps";
import { type PlaygroundData, type RelayJson, UserError, readForm, relayAnswer, relayBody, sendForm } from "./playground-view.js";

const dataNode = document.getElementById("svc-operation");
const form = document.getElementById("playground-form") as HTMLFormElement | null;
const out = document.querySelector<HTMLElement>('[data-testid="playground-response"]');
const app = new App({ name: "svc-mcp API playground", version: "1.0.0" }, {});

if (dataNode !== null && form !== null && out !== null) {
  const data = JSON.parse(dataNode.textContent ?? "{}") as PlaygroundData;
  // Send on the button's click, not the form's submit: a host's sandbox without `allow-forms`
  // blocks a submission before any submit event (Enter in a field clicks the button too).
  form.querySelector('[data-testid="playground-send"]')?.addEventListener("click", (event) => {
    event.preventDefault();
    void sendForm(form, out, async () => {
      const request = readForm(data, form);
      if (data.tool === undefined) throw new UserError("This playground has no way to send requests.");
      const started = performance.now();
      const result = await app.callServerTool({ name: data.tool, arguments: relayBody(data, request) });
      const ms = performance.now() - started;
      const content = result.structuredContent as { relayStatus?: number; answer?: RelayJson } | undefined;
      if (content?.relayStatus === undefined || content.answer === undefined) {
        const text = result.content.find((c) => c.type === "text");
        throw new UserError(`The server did not send the request: ${text?.type === "text" ? text.text : "no reason given"}`);
      }
      return relayAnswer(content.relayStatus, "", content.answer, ms);
    });
  });
}

// Ready once the host has answered the handshake: only then can Send reach the server.
void app.connect().then(
  () => {
    if (form !== null) form.dataset.ready = "true";
  },
  (error: unknown) => {
    out?.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: `Could not reach the host: ${(error as Error).message}` }));
  },
);
