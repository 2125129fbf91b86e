// A machine's page on the hub: its last report (status, details, events) and its tok/h over 6 h, 24 h or 7 d.
import { ago, el, getJson, setConnection, setText, showAuth, token } from "./hub-common.js";

const NAME = document.body.dataset.machine;
const TOKEN_REQUIRED = document.body.dataset.tokenRequired === "true";
const BASE = `/api/fleet/${encodeURIComponent(NAME)}`;
const PAGE_MS = 5000;
const CHART_MS = 60000;
const W = 600;
const H = 160;

let span = "24h";

function renderPage(page) {
  const card = page.card;
  const skew = page.as_of - Date.now() / 1000;
  document.getElementById("machine").dataset.level = card.level;
  setText("status", card.status_line);
  document.title = `${card.status_line} · ${NAME} · tokwatch fleet`;
  const seen = card.last_seen_at === null ? card.last_seen_text
    : `${card.online ? "last report" : "offline · last seen"} ${ago(Date.now() / 1000 + skew - card.last_seen_at)}`;
  setText("seen", seen);
  document.getElementById("details").replaceChildren(...page.details.map((line) => el("li", "", line)));
  const events = document.getElementById("events");
  events.replaceChildren(
    ...page.events.map((event) => {
      const item = el("li", "event");
      // As the dashboard writes an event's time: its age on the hub's clock, the date on hover.
      const when = new Date(event.at * 1000);
      const time = el("time", "muted", ago(Date.now() / 1000 + skew - event.at));
      time.dateTime = when.toISOString();
      time.title = when.toLocaleString();
      item.append(time, el("span", "", ` ${event.text ?? event.kind ?? ""}`));
      return item;
    }),
  );
  document.getElementById("events-empty").hidden = page.events.length > 0;
}

function path(points, high, area) {
  const step = W / Math.max(points.length - 1, 1);
  let d = "";
  let open = false;
  let runStart = 0;
  points.forEach(([, value], i) => {
    const x = (i * step).toFixed(1);
    if (value === null) {
      if (open && area) d += `L${((i - 1) * step).toFixed(1)},${H}L${(runStart * step).toFixed(1)},${H}Z`;
      open = false;
      return;
    }
    const y = (H - 2 - (value / high) * (H - 8)).toFixed(1);
    if (!open) {
      runStart = i;
      d += area ? `M${x},${H}L${x},${y}` : `M${x},${y}`;
      open = true;
    } else {
      d += `L${x},${y}`;
    }
  });
  if (open && area) d += `L${((points.length - 1) * step).toFixed(1)},${H}L${(runStart * step).toFixed(1)},${H}Z`;
  return d;
}

function renderChart(chart) {
  const high = chart.high || 0;
  const empty = high === 0 && !chart.points.some(([, v]) => v !== null);
  document.getElementById("chart-empty").hidden = !empty;
  document.getElementById("chart-line").setAttribute("d", empty ? "" : path(chart.points, high || 1, false));
  document.getElementById("chart-area").setAttribute("d", empty ? "" : path(chart.points, high || 1, true));
  setText("chart-from", { "6h": "6 h ago", "24h": "24 h ago", "7d": "7 d ago" }[chart.span]);
  setText("chart-high", chart.high_text ? `max ${chart.high_text}` : "");
}

async function load() {
  try {
    const page = await getJson(BASE);
    if (page === null) {
      showAuth(true);
      setConnection("locked", "needs token");
      return;
    }
    showAuth(false);
    renderPage(page);
    setConnection("live", `updated every ${PAGE_MS / 1000} s`);
  } catch {
    setConnection("reconnecting", "hub unreachable");
  }
}

async function loadChart() {
  try {
    const chart = await getJson(`${BASE}/chart?span=${span}`);
    if (chart) renderChart(chart);
  } catch {
    // the next round tries again
  }
}

for (const button of document.querySelectorAll("[data-span]")) {
  button.addEventListener("click", () => {
    span = button.dataset.span;
    for (const other of document.querySelectorAll("[data-span]")) {
      other.setAttribute("aria-pressed", String(other === button));
    }
    loadChart();
  });
}

if (TOKEN_REQUIRED && !token.value) showAuth(true);
load();
loadChart();
setInterval(load, PAGE_MS);
setInterval(loadChart, CHART_MS);
