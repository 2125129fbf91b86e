// The page's link to the dashboard: websocket first, polling /api/snapshot while it is down,
// and the token when the dashboard asks for one. Says nothing about the miner.

import { takeEarlySocket } from "./early.js";
import { liveChannel } from "./live.js";
import { keptToken, rememberGood, takeFragmentToken, wasGood } from "./token.js";

const body = document.body;
const WS_PORT = Number(document.documentElement.dataset.wsPort);
export const TOKEN_REQUIRED = document.documentElement.dataset.tokenRequired === "true";
const KEEPALIVE_MS = Number(body.dataset.keepaliveSeconds || 15) * 1000;

const POLL_MS = 5000;
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
let pollOk = false;
let pollAbort = null; // the in-flight poll's AbortController
let portMoved = false; // the server said its websocket is on another port now

const channel = liveChannel({
  url: websocketUrl,
  open(url) {
    const early = takeEarlySocket(url); // the first connection may be open already (early.js)
    return early ? { ws: early.ws, replay: (handlers) => early.replay(handlers) } : { ws: new WebSocket(url), replay: null };
  },
  onOpen() {
    link.lastContactAt = Date.now();
    link.tokenRefused = false;
    if (link.token) rememberGood(link.token);
    setConnection("live");
  },
  onHeard() {
    link.lastContactAt = Date.now();
  },
  onMessage: (message) => onSnapshot(message),
  onClose(opened) {
    if (!opened && TOKEN_REQUIRED && !link.token) setConnection("locked");
  },
  poll,
  pollMs: POLL_MS,
  silenceMs: SILENCE_MS,
  onPolling() {
    if (link.connection !== "polling" && link.connection !== "locked") {
      setConnection(pollOk ? "polling" : "reconnecting");
    }
  },
  onPollingStopped() {
    if (pollAbort) pollAbort.abort();
    pollAbort = null;
    link.pollFailed = false; // says nothing about the next time the websocket drops
  },
});

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

// The server restarted with its websocket on another port. The page's CSP (connect-src) names
// the port it was served with, so only a reload can reach the new one; a reload that brought
// the page back here less than PORT_RELOAD_GUARD_MS ago means no loop: poll instead.
function followWebsocketPort(header) {
  const port = Number(header);
  if (!header || !Number.isInteger(port) || port <= 0 || port === WS_PORT || portMoved) return;
  portMoved = true;
  channel.stop(); // never knock at the old port again: whatever listens there now is not us
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
  if (link.connection !== "live" && (channel.polling || state === "locked")) setConnection(state);
  else onChange();
  return outcome;
}

// A new token (pasted, or a link opened in this tab): try it at once, on both channels.
export function useToken(token) {
  link.token = token;
  link.tokenRefused = false;
  link.tokenReplaced = false;
  channel.drop();
  const outcome = poll();
  channel.retry();
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
  channel.start();
}
