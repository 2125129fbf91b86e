// Place the snapshot on the page. Every figure's text comes from the server (status_line,
// details, warmup.text, events, training_fields); this file only places it. The one text
// it writes itself is an age ("4 min ago"), because ages tick between snapshots.

import { ago, tickingLine, tickingWords } from "./ages.js";
import { authHeaders } from "./link.js";

const $ = (id) => document.getElementById(id);
const body = document.body;

export function setText(id, text) {
  const el = $(id);
  if (el.textContent !== text) el.textContent = text;
}

// --- words the template holds: each state's short word and what it means ------------------

function stateText(state, tag) {
  const el = document.querySelector(`#state-texts ${tag}[data-state="${CSS.escape(state || "")}"]`);
  return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
}

export const stateWord = (state) => stateText(state, "dt");
// A run that is over (app/states.py OVER_STATES): a quiet log is what it leaves, no news.
export const stateIsOver = (state) =>
  document.querySelector(`#state-texts dt[data-state="${CSS.escape(state || "")}"][data-over]`) !== null;
const stateExplanation = (state) => stateText(state, "dd");

// --- ages -----------------------------------------------------------------------------------

export { ago };

// The ages the server found in its words (snapshot.ticking), written again on the server's clock
// every second: "last pass 35 s ago" never reads younger than "updated 57 s ago".
export function renderTicking(snapshot, serverNow) {
  for (const tick of snapshot.ticking || []) {
    const words = tickingWords(tick, serverNow);
    if (tick.line === -1) {
      renderStatus(words);
      continue;
    }
    // Only the line the age was found in (its words around the age unchanged).
    const li = tickingLine($("details"), tick);
    if (li && li.textContent !== words) li.textContent = words;
  }
}

// --- the snapshot -----------------------------------------------------------------------------

// The status line with its last piece kept together ("383/29000 · …"): the "…" never wraps alone.
function renderStatus(statusLine) {
  const el = $("status");
  if (el.dataset.text === statusLine) return;
  el.dataset.text = statusLine;
  const words = statusLine.split(" ");
  const keep = words.length >= 3 && words[words.length - 2] === "·" ? 3 : Math.min(2, words.length);
  const head = words.slice(0, words.length - keep).join(" ");
  const tail = document.createElement("span");
  tail.className = "tail";
  tail.textContent = words.slice(words.length - keep).join(" ");
  el.replaceChildren(...(head ? [`${head} `, tail] : [tail]));
  // Layout, not wording: a long status line gets a smaller size so it keeps to one or two lines.
  el.classList.toggle("long", statusLine.length > 16);
}

function renderState(snapshot) {
  const word = stateWord(snapshot.state);
  const level = snapshot.level || "";
  body.dataset.state = snapshot.state;
  body.dataset.level = level;
  $("state").hidden = !word;
  $("state").dataset.level = level;
  setText("state-word", word);
  // Said once: the source's problem, when there is one, explains instead; a lost layer is the
  // tracker's own sentence ("lost layer 1 at 14:06 — back in the queue").
  const lost = snapshot.lost_layer ? snapshot.lost_layer.text : "";
  // Forwards not delivered: the tracker's sentence ("training, but 33 % of forwards were not delivered").
  const undelivered = snapshot.delivery && snapshot.delivery.level !== "ok" ? snapshot.delivery.text : "";
  // A known cause is in the status line itself ("log silent 12 min — you quit the app at 02:14"):
  // no generic guess beside it.
  const generic = snapshot.cause ? "" : stateExplanation(snapshot.state);
  const explanation = snapshot.source.problem ? "" : lost || undelivered || generic;
  $("explain").hidden = !explanation;
  setText("explain", explanation);
}

function warmupShown(snapshot) {
  const warmup = snapshot.warmup;
  // No sentence, no card: a run finishing after its last step is measured no further.
  return Boolean(warmup) && snapshot.state === "measuring" && !warmup.done && Boolean(warmup.text);
}

// One sentence (from the server) and one bar: the part furthest from done, passes or time.
function renderWarmup(snapshot) {
  const section = $("warmup");
  section.hidden = !warmupShown(snapshot);
  if (section.hidden) return;
  const warmup = snapshot.warmup;
  setText("warmup-text", warmup.text || "");
  const passes = warmup.passes_needed ? Math.min(1, warmup.passes / warmup.passes_needed) : 1;
  const time = warmup.seconds_needed ? Math.min(1, warmup.observed_seconds / warmup.seconds_needed) : 1;
  const percent = Math.round(Math.min(passes, time) * 100);
  const bar = $("warmup-bar");
  bar.setAttribute("aria-valuenow", String(percent));
  bar.firstElementChild.style.width = `${percent}%`;
}

function renderDetails(snapshot) {
  const backendText = snapshot.backend_errors ? snapshot.backend_errors.text : null;
  // The warm-up card says its sentence; the list does not say it again.
  const warmupText = warmupShown(snapshot) ? snapshot.warmup.text : null;
  // Said elsewhere on the page, so not again in the list: the forwards' sentence (under the state)
  // and the power line (under its strip).
  const delivery = snapshot.delivery && snapshot.delivery.level !== "ok" ? snapshot.delivery.text : null;
  const power = snapshot.hardware ? snapshot.hardware.text : null;
  const shownElsewhere = new Set([warmupText, delivery, power].filter(Boolean));
  // Each line keeps its index in snapshot.details: the ages in snapshot.ticking name lines by it.
  const lines = snapshot.details.map((line, index) => [line, index]).filter(([line]) => !shownElsewhere.has(line));
  const list = $("details");
  // The same lines again: leave them (and a keyboard user's focus, and an open explanation) be.
  const key = JSON.stringify([lines, backendText]);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  const help = $("backend-help");
  const open = !help.hidden;
  help.hidden = true;
  document.querySelector("main").append(help); // parked out of the list until a line takes it
  const items = lines.map(([line, index]) => {
    const li = document.createElement("li");
    li.dataset.line = String(index);
    if (!(backendText && line === backendText)) {
      li.textContent = line;
      return li;
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "explains";
    button.textContent = line;
    button.setAttribute("aria-controls", "backend-help");
    button.addEventListener("click", () => {
      help.hidden = !help.hidden;
      button.setAttribute("aria-expanded", String(!help.hidden));
    });
    help.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    li.append(button, help);
    return li;
  });
  list.replaceChildren(...items);
}

function renderTraining(snapshot) {
  const section = $("training");
  const rows = snapshot.training ? snapshot.training_fields || [] : [];
  section.hidden = rows.length === 0;
  if (section.hidden) return;
  setText("training-count", String(rows.length));
  const trs = rows.map(({ label, value, unit }) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = label;
    const td = document.createElement("td");
    td.textContent = value;
    const tdUnit = document.createElement("td");
    tdUnit.textContent = unit || "";
    tr.append(th, td, tdUnit);
    return tr;
  });
  $("training-fields").replaceChildren(...trs);
}

// --- events: newest first, with ages that tick ----------------------------------------------

const EVENTS_SHOWN = 6;

function eventItem(event) {
  const li = document.createElement("li");
  li.dataset.kind = event.kind;
  const time = document.createElement("time");
  time.dataset.at = String(event.at);
  time.dateTime = new Date(event.at * 1000).toISOString();
  time.title = new Date(event.at * 1000).toLocaleString();
  const text = document.createElement("span");
  text.className = "event-text";
  text.textContent = event.text;
  li.append(time, text);
  return li;
}

// The day's events come from /api/events (the history's, the live ones merged in, written by the
// server); the snapshot's own list shows until that answers, or when it cannot.
const DAY_REFRESH_MS = 60_000;
const DAY_MIN_GAP_MS = 5_000;
let dayEvents = null;
let liveKey = null;
let dayFetchedAt = 0;
let dayTimer = null;

async function fetchDay() {
  dayTimer = null;
  dayFetchedAt = Date.now();
  try {
    const response = await fetch("/api/events", { headers: authHeaders(), cache: "no-store" });
    if (!response.ok) return;
    const json = await response.json();
    if (Array.isArray(json.events)) {
      dayEvents = json.events;
      showEvents(dayEvents);
    }
  } catch {
    // the dashboard did not answer: the snapshot's list stays
  }
}

let dayTimerAt = 0;

// Ask again a minute after the last answer, or 5 s after it when the live list changed.
function askDay(soon) {
  const at = Math.max(Date.now(), dayFetchedAt + (soon ? DAY_MIN_GAP_MS : DAY_REFRESH_MS));
  if (dayTimer !== null && dayTimerAt <= at) return;
  clearTimeout(dayTimer);
  dayTimerAt = at;
  dayTimer = setTimeout(fetchDay, at - Date.now());
}

function renderEvents(snapshot) {
  const live = Array.isArray(snapshot.events) ? snapshot.events : [];
  const key = JSON.stringify(live);
  if (dayEvents === null) {
    showEvents(live);
  } else if (key !== liveKey) {
    // What came since the day's list was asked for shows at once; the next answer places it.
    const newest = dayEvents.length ? dayEvents[0].at : -Infinity;
    showEvents([...live.filter((event) => event.at > newest), ...dayEvents]);
  }
  askDay(key !== liveKey);
  liveKey = key;
}

function showEvents(events) {
  $("events").hidden = events.length === 0;
  const key = JSON.stringify(events);
  if ($("events").dataset.key === key) return;
  $("events").dataset.key = key;
  $("event-list").replaceChildren(...events.slice(0, EVENTS_SHOWN).map(eventItem));
  const older = events.slice(EVENTS_SHOWN);
  $("events-more").hidden = older.length === 0;
  setText("events-more-count", String(older.length));
  $("event-list-more").replaceChildren(...older.map(eventItem));
}

// Ages on the server's clock (as_of plus the time since this browser got the snapshot), so a
// phone whose clock is off still reads right.
export function renderEventAges(serverNow) {
  for (const time of document.querySelectorAll("#events time")) {
    const text = `${ago(Math.max(0, serverNow - Number(time.dataset.at)))} ago`;
    if (time.textContent !== text) time.textContent = text;
  }
}

function renderFooter(snapshot) {
  const source = snapshot.source;
  // A DEMO's file is a temporary one of tokwatch's own: its path tells a person nothing.
  setText("source", source.path && !source.demo ? `log: ${source.path}` : "");
  // Folder mode: which file is followed and why (written by the server).
  const following = source.following;
  $("following").hidden = !following;
  setText("following", following ? following.text : "");
}

// tokwatch's own trouble (snapshot.problems: a thread that failed and is being restarted), as written.
function renderProblems(snapshot) {
  const lines = Array.isArray(snapshot.problems) ? snapshot.problems : [];
  const list = $("problems");
  const key = JSON.stringify(lines);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.hidden = lines.length === 0;
  list.replaceChildren(...lines.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
}

export function renderSnapshot(snapshot) {
  $("figures").hidden = false;
  renderStatus(snapshot.status_line);
  renderState(snapshot);
  $("demo").hidden = !snapshot.source.demo;
  const problem = snapshot.source.problem;
  $("problem").hidden = !problem;
  setText("problem", problem || "");
  renderProblems(snapshot);
  renderWarmup(snapshot);
  renderDetails(snapshot);
  renderEvents(snapshot);
  renderTraining(snapshot);
  renderPower(snapshot);
  renderFooter(snapshot);
}

// The power strip (--hardware): the last hour of watts as one line, throttled readings as ticks
// below it; the figures' words are the server's (snapshot.hardware.text).
const SVG_NS = "http://www.w3.org/2000/svg";

function renderPower(snapshot) {
  const hardware = snapshot.hardware;
  const box = $("power");
  box.hidden = !hardware || !hardware.text;
  if (box.hidden) return;
  setText("power-text", hardware.text);
  const svg = $("power-line");
  const points = (hardware.strip || []).filter(([, watts]) => watts != null);
  const key = JSON.stringify([points.length, points.at(-1)]);
  if (svg.dataset.key === key) return;
  svg.dataset.key = key;
  const end = snapshot.as_of;
  const start = end - 3600;
  const high = Math.max(1, ...points.map(([, watts]) => watts));
  const x = (t) => (((t - start) / 3600) * 600).toFixed(1);
  const y = (watts) => (20 - (watts / high) * 18).toFixed(1);
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("class", "power-watts");
  path.setAttribute("d", points.map(([t, watts], i) => `${i ? "L" : "M"}${x(t)},${y(watts)}`).join(""));
  const ticks = (hardware.strip || []).filter(([, , throttled]) => throttled).map(([t]) => {
    const tick = document.createElementNS(SVG_NS, "rect");
    tick.setAttribute("class", "power-throttled");
    tick.setAttribute("x", x(t));
    tick.setAttribute("y", "21");
    tick.setAttribute("width", "4");
    tick.setAttribute("height", "3");
    return tick;
  });
  svg.replaceChildren(path, ...ticks);
}
