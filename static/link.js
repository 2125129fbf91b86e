// The page's link to the dashboard: websocket first, polling /api/snapshot while it is down,
// and the token when the dashboard asks for one. Says nothing about the miner.

import { takeEarlySocket } from "./early.js";
import { keptToken, rememberGood, takeFragmentToken, wasGood } from "./token.js";

const body = document.body;
const WS_PORT = Number(document.documentElement.dataset.wsPort);
export const TOKEN_REQUIRED = document.documentElement.dataset.tokenRequired === "true";
const KEEPALIVE_MS = Number(body.dataset.keepaliveSeconds || 15) * 1000;

const POLL_MS = 5000;
// No websocket open this soon after a try: poll meanwhile (a firewall may drop the port silently).
const OPEN_TIMEOUT_MS = 4000;
const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 30000;
// Silence longer than this on an open websocket means it is dead (keepalives come every 15 s).
const SILENCE_MS = KEEPALIVE_MS * 2.5;
// The websocket moved (the server restarted on another port): reload, at most once in this long.
const PORT_RELOAD_KEY = "tokwatch.portReloadAt";
const PORT_RELOAD_GUARD_MS = 30000;
const WS_PORT_HEADER = "X-Tokwatch-WS-Port";

// connection: connecting · live · polling · reconnecting · locked (the dashboard refused this browser)
export const link = {
  connection: "connecting",
  token: takeFragmentToken() || keptToken(),
  // locked because the token this browser presented was refused (not merely missing)
  tokenRefused: false,
  // …and that token worked here before: the dashboard's token was replaced since
  tokenReplaced: false,
  lastContactAt: Date.now(), // ms: the last websocket message or poll answer (the page load counts)
  pollFailed: false, // the last poll got no answer at all
};

let onSnapshot = () => {};
let onChange = () => {};
let socket = null;
let socketOpenedAt = 0;
let lastMessageAt = 0;
let attempts = 0;
let reconnectTimer = 0;
let pollTimer = 0;
let pollOk = false;
let pollAbort = null; // the in-flight poll's AbortController
let portMoved = false; // the server said its websocket is on another port now

// Neither the websocket nor the last poll got through: the dashboard itself is out of reach.
export function unreachable() {
  return link.connection === "reconnecting" && link.pollFailed;
}

export function authHeaders() {
  return link.token ? { Authorization: `Bearer ${link.token}` } : {};
}

function setConnection(state) {
  link.connection = state;
  onChange();
}

function websocketUrl() {
  const query = link.token ? `?token=${encodeURIComponent(link.token)}` : "";
  return `ws://${location.hostname}:${WS_PORT}/ws${query}`;
}

function connect() {
  clearTimeout(reconnectTimer);
  if (portMoved) return; // never knock at the old port again: whatever listens there now is not us
  let opened = false;
  let heard = false;
  const url = websocketUrl();
  const early = takeEarlySocket(url); // the first connection may be open already (early.js)
  const ws = early ? early.ws : new WebSocket(url);
  socket = ws;
  socketOpenedAt = Date.now();
  const onOpen = () => {
    opened = true;
    lastMessageAt = Date.now();
    link.lastContactAt = lastMessageAt;
    link.tokenRefused = false;
    if (link.token) rememberGood(link.token);
    stopPolling(); // and drop the poll in flight: the websocket's first message is newer
    setConnection("live");
  };
  const onMessage = (event) => {
    lastMessageAt = Date.now();
    link.lastContactAt = lastMessageAt;
    // Only a socket that delivers resets the backoff: one closed right after opening must not
    // bring the next try back within a second, forever.
    if (!heard) attempts = 0;
    heard = true;
    const message = JSON.parse(event.data);
    if (message.keepalive) return;
    onSnapshot(message);
  };
  const onClose = () => {
    if (socket !== ws) return;
    socket = null;
    if (!opened && TOKEN_REQUIRED && !link.token) setConnection("locked");
    startPolling();
    scheduleReconnect();
  };
  ws.addEventListener("open", onOpen);
  ws.addEventListener("message", onMessage);
  ws.addEventListener("close", onClose);
  if (early) early.replay({ open: onOpen, message: onMessage, close: onClose });
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
  if (link.connection !== "polling" && link.connection !== "locked") {
    setConnection(pollOk ? "polling" : "reconnecting");
  }
  poll();
  pollTimer = setInterval(poll, POLL_MS);
}

function stopPolling() {
  clearInterval(pollTimer);
  pollTimer = 0;
  if (pollAbort) pollAbort.abort();
  pollAbort = null;
  link.pollFailed = false; // says nothing about the next time the websocket drops
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
// at all makes it "unreachable". Returns what happened: "ok", "refused", "missing", "unreachable".
async function poll() {
  const controller = new AbortController();
  pollAbort = controller;
  const presented = link.token;
  let state = "reconnecting";
  let answered = false;
  let outcome = "unreachable";
  try {
    const response = await fetch("/api/snapshot", {
      headers: authHeaders(),
      cache: "no-store",
      signal: controller.signal,
    });
    answered = true;
    link.lastContactAt = Date.now();
    if (response.status === 401) {
      // A token that was presented and refused is "wrong", not "missing": say which.
      link.tokenRefused = presented !== null;
      link.tokenReplaced = presented !== null && wasGood(presented);
      outcome = !presented ? "missing" : link.tokenReplaced ? "replaced" : "refused";
      state = "locked";
    } else if (response.ok) {
      followWebsocketPort(response.headers.get(WS_PORT_HEADER));
      link.tokenRefused = false;
      if (presented) rememberGood(presented);
      onSnapshot(await response.json());
      state = "polling";
      outcome = "ok";
    }
  } catch {
    if (controller.signal.aborted) return "aborted"; // the websocket opened: its data is newer
    // no answer (or an unreadable one): keep trying
  } finally {
    if (pollAbort === controller) pollAbort = null;
  }
  pollOk = state === "polling";
  link.pollFailed = !answered;
  if (link.connection !== "live" && (pollTimer || state === "locked")) setConnection(state);
  else onChange();
  return outcome;
}

// A new token (pasted, or a link opened in this tab): try it at once, on both channels.
export function useToken(token) {
  link.token = token;
  link.tokenRefused = false;
  link.tokenReplaced = false;
  attempts = 0;
  const old = socket;
  socket = null; // its close handler must not schedule a second connection
  if (old) old.close();
  const outcome = poll();
  connect();
  return outcome;
}

// The link pasted into a tab already showing the page changes only the fragment: no reload.
function tokenArrived() {
  const fresh = takeFragmentToken();
  if (fresh && fresh !== link.token) useToken(fresh);
}

export function startLink(handlers) {
  onSnapshot = handlers.onSnapshot;
  onChange = handlers.onChange;
  if (TOKEN_REQUIRED && !link.token) link.connection = "locked";
  window.addEventListener("hashchange", tokenArrived);
  connect();
  setInterval(watchdog, 1000);
}
