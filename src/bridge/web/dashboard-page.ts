import { escapeHtml as esc } from "../auth/login-page.js";
import { siteTitle } from "../../engine/tool-names.js";
import { SOURCES, STATUSES } from "../../store/feedback/model.js";
import { htmlResponse } from "./html.js";

/**
 * The feedback dashboard (`/_svc/dashboard`): a static page; its script signs in with an admin
 * API key held only in the page's memory and reads the analytics API with it. Without a key the
 * page holds no data: nothing here depends on the feedback database.
 */
export function dashboardHtml(siteName: string, projectId: string): Response {
  const options = (values: readonly string[]) => values.map((v) => `<option value="${v}">${v}</option>`).join("");
  const body = `
<header class="top"><span class="site">${esc(siteTitle(siteName))}: feedback</span></header>
<main class="dashboard" id="dashboard" data-project="${esc(projectId)}">
  <form id="key-form" class="key-form">
    <label for="admin-key">Admin API key</label>
    <input id="admin-key" type="password" autocomplete="off" placeholder="svc_..." data-testid="dashboard-key">
    <button type="submit" class="primary">Sign in</button>
  </form>
  <p class="signed-in" id="signed-in" data-testid="dashboard-signed-in" hidden>Signed in with an admin API key (kept in this tab only). <button type="button" id="sign-out" data-testid="dashboard-sign-out">Sign out</button></p>
  <p class="error" role="alert" id="dashboard-error" data-testid="dashboard-error" hidden></p>
  <div id="dashboard-data" hidden>
    <form id="filters" class="filters">
      <label>From <input type="date" name="dateFrom" data-testid="filter-from"></label>
      <label>To <input type="date" name="dateTo" data-testid="filter-to"></label>
      <label>Source <select name="source" data-testid="filter-source"><option value="">any</option>${options(SOURCES)}</select></label>
      <label>Status <select name="status" data-testid="filter-status"><option value="">any</option>${options(STATUSES)}</select></label>
      <button type="submit">Apply</button>
    </form>
    <section><h2>Entries over time</h2>
      <div class="chart-switch"><label><input type="radio" name="by" value="source" checked> by source</label> <label><input type="radio" name="by" value="status"> by status</label></div>
      <div id="feedback-chart" data-testid="feedback-chart"></div>
    </section>
    <section><h2>Pages with most negative feedback</h2><ol id="negative-pages" data-testid="negative-pages"></ol></section>
    <section><h2>Entries</h2>
      <table class="entries"><thead><tr><th>Date</th><th>Source</th><th>Page</th><th>Comment</th><th>Status</th></tr></thead><tbody id="entries"></tbody></table>
      <button type="button" id="more" data-testid="feedback-more" hidden>Next page</button>
    </section>
  </div>
</main>`;
  return htmlResponse(`Feedback: ${siteTitle(siteName)}`, body, { styles: ["pages.css", "dashboard.css"], scripts: ["dashboard.js"] });
}
