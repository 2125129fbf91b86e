// tokwatch's page: show the server's snapshot, live over the websocket, polling when it can't.
// Every figure's text comes from the server (status_line, details); this file only places it.

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
const SVG_NS = "http://www.w3.org/2000/svg";

const $ = (id) => document.getElementById(id);

// --- the token (LAN mode) ---------------------------------------------------------------

function takeToken() {
  const match = location.hash.match(/(?:^#|&)token=([^&]+)/);
  if (match) {
    const token = decodeURIComponent(match[1]);
    try {
      localStorage.setItem(TOKEN_KEY, token);
    } catch {
      // storage refused (private mode): the token lives for this page only
    }
    // Keep the secret out of the address bar, screenshots and shoulder-surfing.
    history.replaceState(null, "", location.pathname + location.search);
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
  latest = snapshot;
  latestReceivedAt = Date.now();
  showAuth(false);
  $("figures").hidden = false;
  setText("status", snapshot.status_line);
  // Layout, not wording: a long status line gets a smaller size so it keeps to one or two lines.
  $("status").classList.toggle("long", snapshot.status_line.length > 16);
  document.title = snapshot.status_line;
  body.dataset.state = snapshot.state;
  $("demo").hidden = !snapshot.source.demo;

  const problem = snapshot.source.problem;
  $("problem").hidden = !problem;
  setText("problem", problem || "");

  renderDetails(snapshot.details);
  renderWarmup(snapshot);
  renderHistory(snapshot);
  renderTraining(snapshot.training);
  setText("source", snapshot.source.path ? `log: ${snapshot.source.path}` : "");
  renderFreshness();
  renderFavicon();
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

function renderHistory(snapshot) {
  const points = snapshot.history.filter(([, value]) => value !== null);
  const empty = points.length === 0;
  $("spark-empty").hidden = !empty;
  $("spark-box").hidden = empty;
  if (empty) return;
  // The bounds and their labels come from the engine: the page never formats a figure.
  const { low, high, low_text: lowText, high_text: highText } = snapshot.history_range;
  setText("spark-max", `max ${highText}`);
  setText("spark-min", `min ${lowText}`);

  const [width, height, pad] = [300, 64, 4];
  const end = snapshot.as_of;
  const start = end - 3600;
  const span = high - low || 1;
  const x = (t) => (((t - start) / (end - start)) * width).toFixed(1);
  const y = (v) => (high === low ? height / 2 : pad + (1 - (v - low) / span) * (height - 2 * pad)).toFixed(1);

  // A gap in the history (null: not measured) breaks the line rather than bridging it.
  let line = "";
  let area = "";
  let run = [];
  const flush = () => {
    if (run.length === 0) return;
    const segment = run.map(([t, v], i) => `${i ? "L" : "M"}${x(t)},${y(v)}`).join("");
    line += segment;
    area += `${segment}L${x(run[run.length - 1][0])},${height}L${x(run[0][0])},${height}Z`;
    run = [];
  };
  for (const [t, value] of snapshot.history) {
    if (t < start) continue;
    if (value === null) flush();
    else run.push([t, value]);
  }
  flush();
  $("spark-line").setAttribute("d", line);
  $("spark-area").setAttribute("d", area);
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

function renderFreshness() {
  const el = $("freshness");
  if (!latest) return;
  const age = logAgeSeconds();
  let text;
  let quiet = false;
  if (age === null) {
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
  const colour = quiet ? STATE_COLOURS.stalled : STATE_COLOURS[state] || STATE_COLOURS.waiting;
  const down = connection === "reconnecting" || connection === "locked";
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
  renderFavicon();
}

function websocketUrl() {
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  return `ws://${location.hostname}:${WS_PORT}/ws${query}`;
}

function connect() {
  clearTimeout(reconnectTimer);
  let opened = false;
  const ws = new WebSocket(websocketUrl());
  socket = ws;
  socketOpenedAt = Date.now();
  ws.addEventListener("open", () => {
    opened = true;
    attempts = 0;
    lastMessageAt = Date.now();
    stopPolling();
    setConnection("live");
  });
  ws.addEventListener("message", (event) => {
    lastMessageAt = Date.now();
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
}

async function fetchSnapshot() {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const response = await fetch("/api/snapshot", { headers, cache: "no-store" });
  if (response.status === 401) {
    if (token) forgetToken(); // a kept token that no longer works: ask for the link again
    showAuth(true);
    return null;
  }
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

async function poll() {
  let state = "reconnecting";
  try {
    const snapshot = await fetchSnapshot();
    if (snapshot === null) {
      state = "locked";
    } else {
      render(snapshot);
      state = "polling";
    }
  } catch {
    // the server is unreachable: keep trying
  }
  pollOk = state === "polling";
  if (pollTimer && connection !== "live") setConnection(state);
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
  renderFreshness();
  renderFavicon();
  watchdog();
}

if (TOKEN_REQUIRED && !token) showAuth(true);
window.addEventListener("hashchange", tokenArrived);
connect();
setInterval(tick, 1000);
