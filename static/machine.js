// A machine's page on the hub: its last report (status, details, events) and its chart (machine-chart.js).
import { agoText, tickingLine, tickingWords } from "./ages.js";
import { el, getJson, setConnection, setText, showAuth, token } from "./hub-common.js";
import { renderMachineChart, setupMachineChart } from "./machine-chart.js";
import { loadCompare, setupCompare } from "./machine-compare.js";

const NAME = document.body.dataset.machine;
const TOKEN_REQUIRED = document.body.dataset.tokenRequired === "true";
const BASE = `/api/fleet/${encodeURIComponent(NAME)}`;
const PAGE_MS = 5000;
const CHART_MS = 60000;

let span = "24h";
let shown = null; // the page last rendered, and the hub's clock − this browser's
let skew = 0;

// The ages on the page, written again every second on the hub's clock, as the dashboard does:
// the last report's age, each event's, and those in the status line and details.
function tick() {
  if (shown === null) return;
  const now = Date.now() / 1000 + skew;
  const card = shown.card;
  const seen = card.last_seen_at === null ? card.last_seen_text
    : `${card.online ? "last report" : "offline · last seen"} ${agoText(now - card.last_seen_at)}`;
  setText("seen", seen);
  for (const time of document.querySelectorAll("#events time[data-at]")) {
    const words = agoText(now - Number(time.dataset.at));
    if (time.textContent !== words) time.textContent = words;
  }
  const details = document.getElementById("details");
  for (const age of shown.ticking || []) {
    const words = tickingWords(age, now);
    if (age.line === -1) {
      const [head, tail] = age.template.split("{}");
      const status = document.getElementById("status").textContent;
      if (status.startsWith(head) && status.endsWith(tail)) setText("status", words);
      continue;
    }
    const li = tickingLine(details, age);
    if (li && li.textContent !== words) li.textContent = words;
  }
}

function renderPage(page) {
  const card = page.card;
  shown = page;
  skew = page.as_of - Date.now() / 1000;
  document.getElementById("machine").dataset.level = card.level;
  setText("status", card.status_line);
  document.title = `${card.status_line} · ${NAME} · tokwatch fleet`;
  setText("clock", page.clock_skew_text ?? "");
  document.getElementById("clock").hidden = !page.clock_skew_text;
  setText("notes", page.notes_text ?? "");
  document.getElementById("notes").hidden = !page.notes_text;
  // Offline: no current detail, but what it was last doing and since when.
  const lines = page.details.length || !card.last_doing_text ? page.details : [card.last_doing_text];
  document.getElementById("details").replaceChildren(...lines.map((line, index) => {
    const li = el("li", "", line);
    if (page.details.length) li.dataset.line = String(index); // a ticking age names its line by index
    return li;
  }));
  const events = document.getElementById("events");
  events.replaceChildren(
    ...page.events.map((event) => {
      const item = el("li", "event");
      // As the dashboard writes an event's time: its age on the hub's clock, the date on hover.
      const when = new Date(event.at * 1000);
      const time = el("time", "muted", "");
      time.dataset.at = String(event.at);
      time.dateTime = when.toISOString();
      time.title = when.toLocaleString();
      item.append(time, el("span", "", ` ${event.text ?? event.kind ?? ""}`));
      return item;
    }),
  );
  const empty = document.getElementById("events-empty");
  empty.hidden = page.events.length > 0;
  if (page.events_empty_text) empty.textContent = page.events_empty_text;
  tick();
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

// Answers can come back out of order (a slow phone, a busy hub): only the newest answer asked for
// the range chosen now is drawn, so a late answer for the range before never replaces it.
let chartAsked = 0;
let chartDrawn = 0;

async function loadChart() {
  const asked = ++chartAsked;
  const wanted = span;
  try {
    const chart = await getJson(`${BASE}/chart?span=${wanted}`);
    if (!chart || wanted !== span || asked < chartDrawn) return;
    chartDrawn = asked;
    renderMachineChart(chart);
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
    loadCompare();
  });
}

setupMachineChart();
setupCompare({ name: NAME, span: () => span });
if (TOKEN_REQUIRED && !token.value) showAuth(true);
load();
loadChart();
setInterval(load, PAGE_MS);
setInterval(loadChart, CHART_MS);
setInterval(loadCompare, CHART_MS);
setInterval(tick, 1000);
