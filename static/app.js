// tokwatch's page: the server's snapshot, live over the websocket (link.js), placed by view.js.
// This file ties them together and owns what depends on both: freshness, the tab title, the
// favicon, the token screen and the announcements for screen readers.

import { TOKEN_REQUIRED, authHeaders, link, startLink, unreachable, useToken } from "./link.js";
import { setupReport } from "./report.js";
import { parsePasted } from "./token.js";
import { ago, renderEventAges, renderSnapshot, renderTicking, setText, stateIsOver, stateWord } from "./view.js";
import { renderChart, setupChart } from "./chart.js";
import { renderCompare, setupCompare } from "./compare.js";
import { renderWeeks, setupWeeks } from "./compare-weeks.js";
import { renderSwarm } from "./swarm.js";
import { alertsFrom } from "./notify.js";

const body = document.body;
const $ = (id) => document.getElementById(id);

// No new log line for this long: the log has gone quiet (queue polls come every ~75 s).
const QUIET_SECONDS = 180;
const SVG_NS = "http://www.w3.org/2000/svg";

let latest = null; // the newest snapshot
let latestReceivedAt = 0; // ms, this browser's clock

function onSnapshot(snapshot) {
  // A poll that left before the websocket opened may land after its newer message: drop it.
  if (latest && snapshot.as_of < latest.as_of) return;
  const first = latest === null;
  latest = snapshot;
  latestReceivedAt = Date.now();
  renderSnapshot(snapshot);
  // When the status line first shows the server's figures (read by the bench: time to status).
  if (first) performance.mark("tokwatch:status");
  renderChart(snapshot);
  renderSwarm(snapshot);
  renderCompare(snapshot);
  renderWeeks(snapshot);
  renderLink();
  alertsFrom(snapshot);
}

// The server's clock now: as_of plus the time since this browser got the snapshot.
function serverNow() {
  return latest.as_of + (Date.now() - latestReceivedAt) / 1000;
}

function logAgeSeconds() {
  if (!latest || latest.source.last_event_at === null) return null;
  return Math.max(0, serverNow() - latest.source.last_event_at);
}

// This browser's clock: when the page last heard from the dashboard is the browser's own event.
function clockTime(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "numeric", minute: "2-digit" }); // 1:13 AM, 13:13
}

const locked = () => link.connection === "locked";
const offline = () => unreachable() || locked();

// --- the connection, in words ---------------------------------------------------------------

const CONNECTION_TEXT = {
  connecting: "connecting…",
  live: "live",
  polling: "polling every 5 s",
  reconnecting: "reconnecting…",
  locked: "needs token",
};

function renderConnection() {
  const refused = link.tokenReplaced ? "token replaced" : "token refused";
  const text = locked() && link.tokenRefused ? refused : CONNECTION_TEXT[link.connection];
  $("connection-box").dataset.connection = link.connection;
  setText("connection", text);
}

function renderAuth() {
  $("auth").hidden = !locked();
  $("auth-missing").hidden = link.tokenRefused;
  $("auth-wrong").hidden = !link.tokenRefused || link.tokenReplaced;
  $("auth-replaced").hidden = !link.tokenRefused || !link.tokenReplaced;
}

function renderFreshness() {
  const el = $("freshness");
  if (!latest) return;
  const age = logAgeSeconds();
  let text = "";
  let quiet = false;
  if (unreachable()) {
    // Nothing heard from the dashboard itself: its figures are old, and the miner is not to blame.
    const since = (Date.now() - link.lastContactAt) / 1000;
    text = `dashboard unreachable since ${clockTime(link.lastContactAt)} (${ago(since)})`;
  } else if (locked()) {
    text = link.tokenReplaced
      ? "not live: this browser's token was replaced on the computer"
      : link.tokenRefused
      ? "not live: the token this browser had was refused"
      : "not live: this browser needs the token — open the link tokwatch printed";
  } else if (age === null || latest.state === "silent") {
    text = ""; // the state says it (nothing read yet; the log went silent)
  } else if (stateIsOver(latest.state)) {
    text = `last log line ${ago(age)} ago`; // the run is over: its log is quiet, and that is no news
  } else if (age < QUIET_SECONDS) {
    text = `updated ${ago(age)} ago`;
  } else {
    text = `no new log line for ${ago(age)}`;
    quiet = true;
  }
  el.hidden = !text;
  el.classList.toggle("quiet", quiet);
  el.classList.toggle("offline", offline());
  if (el.textContent !== text) el.textContent = text;
}

// The tab title is the status line, with the state's word when the line does not say it and
// something is wrong, and flagged while the figures under it are not live.
function renderTitle() {
  if (!latest) return;
  let title = latest.status_line;
  const word = stateWord(latest.state);
  if ((latest.level === "warning" || latest.level === "problem") && word && !title.includes(word)) {
    title = `${word} · ${title}`;
  }
  if (offline()) title = `⚠ ${title}`;
  if (document.title !== title) document.title = title;
}

// --- favicon: the level's colour and shape, a grey ring while the link is down ------------------

const LEVEL_COLOURS = { ok: "#16a34a", waiting: "#2563eb", warning: "#d97706", problem: "#dc2626" };
const GREY = "#8a8f98";
let faviconKey = "";

function renderFavicon() {
  const level = latest && latest.level in LEVEL_COLOURS ? latest.level : "";
  const down = link.connection === "reconnecting" || offline();
  const key = `${level}|${down}`;
  if (key === faviconKey) return;
  faviconKey = key;
  const colour = down ? GREY : LEVEL_COLOURS[level] || GREY;
  let shape;
  if (down) shape = `<circle cx="8" cy="8" r="5.5" fill="none" stroke="${colour}" stroke-width="3"/>`;
  else if (level === "warning") shape = `<path d="M8 1 15.5 15H.5Z" fill="${colour}"/>`;
  else if (level === "problem") shape = `<rect x="1.5" y="1.5" width="13" height="13" rx="2" fill="${colour}"/>`;
  else shape = `<circle cx="8" cy="8" r="7" fill="${colour}"/>`;
  const svg = `<svg xmlns="${SVG_NS}" viewBox="0 0 16 16">${shape}</svg>`;
  $("favicon").href = `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

// --- announcements: a change of state, or of whether the figures are live; never a figure -----

let announcedKey = "";

function announce() {
  if (!latest) return;
  const linkState = unreachable() ? "unreachable" : locked() ? `locked-${link.tokenRefused}` : "live";
  const key = `${latest.state}|${linkState}`;
  if (key === announcedKey) return;
  announcedKey = key;
  let message;
  if (linkState === "unreachable") message = "Dashboard unreachable: the figures shown are old.";
  else if (linkState !== "live") message = $("freshness").textContent;
  else {
    const word = stateWord(latest.state);
    message = word ? `${word}: ${latest.status_line}` : latest.status_line;
  }
  setText("announcer", message);
}

// Everything that depends on the link as well as on the snapshot.
function renderLink() {
  renderConnection();
  renderAuth();
  body.classList.toggle("offline", unreachable());
  body.classList.toggle("locked", locked());
  renderFreshness();
  renderTitle();
  renderFavicon();
  announce();
  if (latest) {
    renderEventAges(serverNow());
    renderTicking(latest, serverNow());
  }
}

// --- the token screen ------------------------------------------------------------------------

function setupTokenForm() {
  const form = $("token-form");
  const result = $("token-result");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("token-input");
    const pasted = parsePasted(input.value);
    if (pasted.error) {
      result.textContent = result.dataset[pasted.error];
      return;
    }
    input.value = "";
    result.textContent = result.dataset.checking;
    const outcome = await useToken(pasted.token);
    result.textContent = outcome === "ok" ? "" : result.dataset[outcome] || result.dataset.unreachable;
  });
}

setupTokenForm();
setupReport();
setupChart({ headers: authHeaders });
setupCompare({ headers: authHeaders });
setupWeeks({ headers: authHeaders });
if (TOKEN_REQUIRED && !link.token) renderLink();
startLink({ onSnapshot, onChange: renderLink });
setInterval(renderLink, 1000);
