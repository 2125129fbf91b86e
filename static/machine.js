// A machine's page on the hub: its last report (status, details, events) and its chart (machine-chart.js).
import { ago, el, getJson, setConnection, setText, showAuth, token } from "./hub-common.js";
import { renderMachineChart, setupMachineChart } from "./machine-chart.js";

const NAME = document.body.dataset.machine;
const TOKEN_REQUIRED = document.body.dataset.tokenRequired === "true";
const BASE = `/api/fleet/${encodeURIComponent(NAME)}`;
const PAGE_MS = 5000;
const CHART_MS = 60000;

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
  setText("clock", page.clock_skew_text ?? "");
  document.getElementById("clock").hidden = !page.clock_skew_text;
  setText("notes", page.notes_text ?? "");
  document.getElementById("notes").hidden = !page.notes_text;
  // Offline: no current detail, but what it was last doing and since when.
  const lines = page.details.length || !card.last_doing_text ? page.details : [card.last_doing_text];
  document.getElementById("details").replaceChildren(...lines.map((line) => el("li", "", line)));
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
    if (chart) renderMachineChart(chart);
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

setupMachineChart();
if (TOKEN_REQUIRED && !token.value) showAuth(true);
load();
loadChart();
setInterval(load, PAGE_MS);
setInterval(loadChart, CHART_MS);
