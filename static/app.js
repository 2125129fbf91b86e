// tokwatch's page: show the server's snapshot, live over the websocket, polling when it can't.
// Every figure's text comes from the server (status_line, details); this file only places it.

import { renderChart, setupChart } from "./chart.js";
import { alertsFrom } from "./notify.js";

const body = document.body;
const WS_PORT = Number(body.dataset.wsPort);
const TOKEN_REQUIRED = body.dataset.tokenRequired === "true";
const KEEPALIVE_MS = Number(body.dataset.keepaliveSeconds || 15) * 1000;

const POLL_MS = 5000;
// No websocket open this soon after a try: poll meanwhile (a firewall may drop the port silently).
const OPEN_TIMEOUT_MS = 4000;
const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 30000;
// Silence longer than this on an open websocket means it is dead (keepalives come every 15 s).
const SILENCE_MS = KEEPALIVE_MS * 2.5;
// No new log line for this long: the miner has gone quiet (queue polls come every ~75 s).
const QUIET_SECONDS = 180;
const TOKEN_KEY = "tokwatch.token";
// The websocket moved (the server restarted on another port): reload, at most once in this long.
const PORT_RELOAD_KEY = "tokwatch.portReloadAt";
const PORT_RELOAD_GUARD_MS = 30000;
const WS_PORT_HEADER = "X-Tokwatch-WS-Port";
const SVG_NS = "http://www.w3.org/2000/svg";

const $ = (id) => document.getElementById(id);

// --- the token (LAN mode) ---------------------------------------------------------------

// The token in the link's fragment, or null when there is none or it is garbled (a bad
// percent-escape would make decodeURIComponent throw and stop the whole script).
function fragmentToken() {
  const match = location.hash.match(/(?:^#|&)token=([^&]+)/);
  if (!match) return null;
  // Keep the secret out of the address bar, screenshots and shoulder-surfing.
  history.replaceState(null, "", location.pathname + location.search);
  try {
    return decodeURIComponent(match[1]) || null;
  } catch {
    return null; // ignored: the server says whether a token is needed, and the page asks for it
  }
}

function takeToken() {
  const token = fragmentToken();
  if (token) {
    try {
      localStorage.setItem(TOKEN_KEY, token);
    } catch {
      // storage refused (private mode): the token lives for this page only
    }
    return token;
  }
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

let token = takeToken();

function forgetToken() {
  token = null;
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    // nothing kept
  }
}

function showAuth(needed) {
  $("auth").hidden = !needed;
}

// --- rendering ------------------------------------------------------------------------

let latest = null; // the newest snapshot
let latestReceivedAt = 0; // ms, this browser's clock

function setText(id, text) {
  const el = $(id);
  if (el.textContent !== text) el.textContent = text;
}

function render(snapshot) {
  // A poll that left before the websocket opened may land after its newer message: drop it.
  if (latest && snapshot.as_of < latest.as_of) return;
  latest = snapshot;
  latestReceivedAt = Date.now();
  showAuth(false);
  $("figures").hidden = false;
  setText("status", snapshot.status_line);
  // Layout, not wording: a long status line gets a smaller size so it keeps to one or two lines.
  $("status").classList.toggle("long", snapshot.status_line.length > 16);
  body.dataset.state = snapshot.state;
  $("demo").hidden = !snapshot.source.demo;

  const problem = snapshot.source.problem;
  $("problem").hidden = !problem;
  setText("problem", problem || "");

  renderDetails(snapshot.details);
  renderWarmup(snapshot);
  renderChart(snapshot);
  renderTraining(snapshot.training);
  setText("source", snapshot.source.path ? `log: ${snapshot.source.path}` : "");
  const following = snapshot.source.following;
  $("following").hidden = !following;
  setText("following", following ? following.text : "");
  renderLink();
  alertsFrom(snapshot);
}

function renderDetails(lines) {
  const list = $("details");
  const items = lines.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  });
  list.replaceChildren(...items);
}

function renderWarmup(snapshot) {
  const warmup = snapshot.warmup;
  const section = $("warmup");
  section.hidden = snapshot.state !== "measuring" || warmup.done;
  if (section.hidden) return;
  const minutesNeeded = Math.round(warmup.seconds_needed / 60);
  const minutes = Math.min(Math.floor(warmup.observed_seconds / 60), minutesNeeded);
  const passes = Math.min(warmup.passes, warmup.passes_needed);
  // Step-based trainers warm up on optimizer steps, the IOTA miner on forward passes.
  setText("warmup-passes-label", snapshot.training ? "steps" : "passes");
  $("warmup-passes").max = warmup.passes_needed;
  $("warmup-passes").value = passes;
  setText("warmup-passes-text", `${passes}/${warmup.passes_needed}`);
  $("warmup-minutes").max = warmup.seconds_needed;
  $("warmup-minutes").value = Math.min(warmup.observed_seconds, warmup.seconds_needed);
  setText("warmup-minutes-text", `${minutes}/${minutesNeeded}`);
}

// Step-based trainers (nanochat, nanoGPT, …): every known field, raw, under the details that
// already say what matters. Nested groups (eval, figures) flatten to "eval · pass@1 · value".
function trainingLeaves(value, path, rows) {
  if (value === null || value === undefined) return rows;
  if (typeof value === "object" && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) trainingLeaves(inner, [...path, key], rows);
    return rows;
  }
  rows.push([path.join(" · ").replaceAll("_", " "), raw(value)]);
  return rows;
}

// A raw value as is, but without float noise (0.12916803359985352 → 0.129168).
function raw(value) {
  if (Array.isArray(value)) return value.map(raw).join(", ");
  if (typeof value === "number" && !Number.isInteger(value)) return String(Number(value.toPrecision(6)));
  return String(value);
}

function renderTraining(training) {
  const section = $("training");
  section.hidden = !training;
  if (!training) return;
  const leaves = trainingLeaves(training, [], []);
  setText("training-count", String(leaves.length));
  const rows = leaves.flatMap(([key, value]) => {
    const dt = document.createElement("dt");
    dt.textContent = key;
    const dd = document.createElement("dd");
    dd.textContent = value;
    return [dt, dd];
  });
  $("training-fields").replaceChildren(...rows);
}

// The one text the page writes itself, because it ticks between snapshots; it reads as
// app/text.py's duration() does (45 s, 12 min, 3 h 05 min, 2 d 4 h).
function ago(seconds) {
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) {
    const hours = Math.floor(seconds / 3600);
    return `${hours} h ${String(Math.floor((seconds % 3600) / 60)).padStart(2, "0")} min`;
  }
  return `${Math.floor(seconds / 86400)} d ${Math.floor((seconds % 86400) / 3600)} h`;
}

// Ages use the server's clock (as_of) plus the time since this browser got the snapshot,
// so a phone whose clock is off still reads right.
function logAgeSeconds() {
  if (!latest || latest.source.last_event_at === null) return null;
  const atReceipt = latest.as_of - latest.source.last_event_at;
  return Math.max(0, atReceipt + (Date.now() - latestReceivedAt) / 1000);
}

// This browser's clock: when the page last heard from the dashboard is the browser's own event.
function clockTime(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function renderFreshness() {
  const el = $("freshness");
  if (!latest) return;
  const age = logAgeSeconds();
  let text;
  let quiet = false;
  if (unreachable()) {
    // Nothing heard from the dashboard itself: its figures are old, and the miner is not to blame.
    const since = (Date.now() - lastContactAt) / 1000;
    text = `dashboard unreachable since ${clockTime(lastContactAt)} (${ago(since)})`;
  } else if (connection === "locked") {
    text = "not live: this browser needs the token — open the link tokwatch printed";
  } else if (age === null) {
    text = latest.source.path ? "no log line read yet" : "no log yet";
  } else if (age < QUIET_SECONDS) {
    text = `updated ${ago(age)} ago`;
  } else {
    text = `no new log line for ${ago(age)}`;
    quiet = true;
  }
  el.classList.toggle("quiet", quiet);
  body.classList.toggle("quiet", quiet);
  if (el.textContent !== text) el.textContent = text;
}

// The tab title is the status line, flagged while the figures under it are not live.
function renderTitle() {
  if (!latest) return;
  const offline = unreachable() || connection === "locked";
  const title = offline ? `⚠ ${latest.status_line}` : latest.status_line;
  if (document.title !== title) document.title = title;
}

// Everything that depends on the link as well as on the snapshot.
function renderLink() {
  const offline = unreachable();
  body.classList.toggle("offline", offline);
  body.classList.toggle("locked", connection === "locked");
  $("freshness").classList.toggle("offline", offline);
  renderFreshness();
  renderTitle();
  renderFavicon();
}

// --- favicon: a dot coloured by state, hollow while the link is down ----------------------

const STATE_COLOURS = {
  training: "#1f9d55",
  measuring: "#d69e2e",
  working: "#3182ce",
  queued: "#805ad5",
  waiting: "#8a8f98",
  stalled: "#e53e3e",
  unrecognised: "#e53e3e",
};
let faviconKey = "";

function renderFavicon() {
  const state = latest ? latest.state : "waiting";
  const quiet = body.classList.contains("quiet");
  // Cut off from the dashboard: a grey ring says "disconnected", not the miner's state.
  const cutOff = unreachable() || connection === "locked";
  let colour = quiet ? STATE_COLOURS.stalled : STATE_COLOURS[state] || STATE_COLOURS.waiting;
  if (cutOff) colour = STATE_COLOURS.waiting;
  const down = connection === "reconnecting" || cutOff;
  const key = `${colour}|${down}`;
  if (key === faviconKey) return;
  faviconKey = key;
  const dot = down
    ? `<circle cx="8" cy="8" r="5.5" fill="none" stroke="${colour}" stroke-width="3"/>`
    : `<circle cx="8" cy="8" r="7" fill="${colour}"/>`;
  const svg = `<svg xmlns="${SVG_NS}" viewBox="0 0 16 16">${dot}</svg>`;
  $("favicon").href = `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

// --- connection: websocket first, polling while it is down --------------------------------

let connection = "connecting";
let socket = null;
let socketOpenedAt = 0;
let lastMessageAt = 0;
let attempts = 0;
let reconnectTimer = 0;
let pollTimer = 0;
let pollOk = false;
let pollFailed = false; // the last poll got no answer at all
let pollAbort = null; // the in-flight poll's AbortController
let lastContactAt = Date.now(); // ms: the last websocket message or poll answer (the page load counts)
let portMoved = false; // the server said its websocket is on another port now

const CONNECTION_TEXT = {
  connecting: "connecting…",
  live: "live",
  polling: "polling every 5 s",
  reconnecting: "reconnecting…",
  locked: "needs token",
};

function setConnection(state) {
  connection = state;
  const el = $("connection");
  el.dataset.connection = state;
  el.textContent = CONNECTION_TEXT[state];
  renderLink();
}

// Neither the websocket nor the last poll got through: the dashboard itself is out of reach.
function unreachable() {
  return connection === "reconnecting" && pollFailed;
}

function websocketUrl() {
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  return `ws://${location.hostname}:${WS_PORT}/ws${query}`;
}

function connect() {
  clearTimeout(reconnectTimer);
  if (portMoved) return; // never knock at the old port again: whatever listens there now is not us
  let opened = false;
  let heard = false;
  const ws = new WebSocket(websocketUrl());
  socket = ws;
  socketOpenedAt = Date.now();
  ws.addEventListener("open", () => {
    opened = true;
    lastMessageAt = Date.now();
    lastContactAt = lastMessageAt;
    stopPolling(); // and drop the poll in flight: the websocket's first message is newer
    setConnection("live");
  });
  ws.addEventListener("message", (event) => {
    lastMessageAt = Date.now();
    lastContactAt = lastMessageAt;
    // Only a socket that delivers resets the backoff: one closed right after opening must not
    // bring the next try back within a second, forever.
    if (!heard) attempts = 0;
    heard = true;
    const message = JSON.parse(event.data);
    if (message.keepalive) return;
    render(message);
  });
  ws.addEventListener("close", () => {
    if (socket !== ws) return;
    socket = null;
    if (!opened && TOKEN_REQUIRED && !token) showAuth(true);
    startPolling();
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  if (portMoved) return;
  const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** attempts);
  attempts += 1;
  // Jitter, so phones and tabs woken together do not all knock at once.
  reconnectTimer = setTimeout(connect, delay * (0.5 + Math.random() / 2));
}

function watchdog() {
  if (!socket) return;
  const now = Date.now();
  if (socket.readyState === WebSocket.CONNECTING && now - socketOpenedAt > OPEN_TIMEOUT_MS) {
    startPolling(); // keep the figures moving while the handshake hangs
  }
  if (socket.readyState === WebSocket.CONNECTING && now - socketOpenedAt > 3 * OPEN_TIMEOUT_MS) {
    socket.close(); // a silently dropped port: give up this try, back off, try again
  }
  if (socket.readyState === WebSocket.OPEN && now - lastMessageAt > SILENCE_MS) {
    socket.close();
  }
}

function startPolling() {
  if (pollTimer) return;
  if (connection !== "polling") setConnection(pollOk ? "polling" : "reconnecting");
  poll();
  pollTimer = setInterval(poll, POLL_MS);
}

function stopPolling() {
  clearInterval(pollTimer);
  pollTimer = 0;
  if (pollAbort) pollAbort.abort();
  pollAbort = null;
  pollFailed = false; // says nothing about the next time the websocket drops
}

// The server restarted with its websocket on another port. The page's CSP (connect-src) names
// the port it was served with, so only a reload can reach the new one; a reload that brought
// the page back here less than PORT_RELOAD_GUARD_MS ago means no loop: poll instead.
function followWebsocketPort(header) {
  const port = Number(header);
  if (!header || !Number.isInteger(port) || port <= 0 || port === WS_PORT || portMoved) return;
  portMoved = true;
  clearTimeout(reconnectTimer);
  const old = socket;
  socket = null; // its close handler must not reconnect
  if (old) old.close();
  let last = 0;
  try {
    last = Number(sessionStorage.getItem(PORT_RELOAD_KEY)) || 0;
  } catch {
    // no storage: treated as no reload yet, but the write below must work to reload
  }
  const since = Date.now() - last;
  if (since >= 0 && since < PORT_RELOAD_GUARD_MS) return;
  try {
    sessionStorage.setItem(PORT_RELOAD_KEY, String(Date.now()));
  } catch {
    return; // a reload could not be remembered, so it could loop: keep polling
  }
  location.reload();
}

// One poll. Any HTTP answer (a 401, a 500) means the dashboard is reachable; only no answer
// at all makes it "unreachable".
async function poll() {
  const controller = new AbortController();
  pollAbort = controller;
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  let state = "reconnecting";
  let answered = false;
  try {
    const response = await fetch("/api/snapshot", { headers, cache: "no-store", signal: controller.signal });
    answered = true;
    lastContactAt = Date.now();
    if (response.status === 401) {
      if (token) forgetToken(); // a kept token that no longer works: ask for the link again
      showAuth(true);
      state = "locked";
    } else if (response.ok) {
      followWebsocketPort(response.headers.get(WS_PORT_HEADER));
      render(await response.json());
      state = "polling";
    }
  } catch {
    if (controller.signal.aborted) return; // the websocket opened: its data is newer
    // no answer (or an unreadable one): keep trying
  } finally {
    if (pollAbort === controller) pollAbort = null;
  }
  pollOk = state === "polling";
  pollFailed = !answered;
  if (pollTimer && connection !== "live") setConnection(state);
  else renderLink();
}

// The link pasted into a tab already showing the page changes only the fragment: no reload.
function tokenArrived() {
  const fresh = takeToken();
  if (!fresh || fresh === token) return;
  token = fresh;
  showAuth(false);
  attempts = 0;
  const old = socket;
  socket = null; // its close handler must not schedule a second connection
  if (old) old.close();
  poll();
  connect();
}

function tick() {
  renderLink();
  watchdog();
}

if (TOKEN_REQUIRED && !token) showAuth(true);
setupChart({ headers: () => (token ? { Authorization: `Bearer ${token}` } : {}) });
window.addEventListener("hashchange", tokenArrived);
connect();
setInterval(tick, 1000);
