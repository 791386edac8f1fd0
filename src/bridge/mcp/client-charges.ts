import { parseAgentFeedback } from "../../store/feedback/input.js";
import type { ClientBudgetKey } from "../middleware/rate-limit.js";

/**
 * MCP tools that store what a caller sends, by tool key: the per-IP budgets a call takes, the
 * same as the HTTP route that stores the same data (`submit_feedback` as `POST /v1/feedback/...`:
 * one entry and its bytes), so no way in escapes them. Counted only for arguments that validate,
 * as the route counts after validation: a call the tool refuses stores nothing.
 */
export const CLIENT_CHARGES: Readonly<Record<string, (args: unknown) => Partial<Record<ClientBudgetKey, number>> | undefined>> = {
  // The playground app's Send goes through the relay: the same per-IP budget as `POST /_svc/api/request`.
  api_request: () => ({ relay: 1 }),
  submit_feedback: (args) => {
    const parsed = parseAgentFeedback(args);
    return parsed.ok ? { feedback: 1, "feedback-bytes": Buffer.byteLength(JSON.stringify(parsed.value), "utf8") } : undefined;
  },
};
