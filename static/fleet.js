// The fleet page: a card per machine from /ws/fleet (pushed) or /api/fleet (polled while the websocket is down).
import { agoText } from "./ages.js";
import { el, getJson, setConnection, setText, showAuth, token } from "./hub-common.js";
import { liveChannel } from "./live.js";

const body = document.body;
const WS_PORT = body.dataset.wsPort;
const TOKEN_REQUIRED = body.dataset.tokenRequired === "true";
const POLL_MS = 5000;
// Silence longer than this on an open websocket means it is dead (the hub's keepalives come every 15 s).
const SILENCE_MS = Number(body.dataset.keepaliveSeconds || 15) * 1000 * 2.5;
const PREFS_KEY = "tokwatch.fleet.view";
const STATE_ORDER = { problem: 0, warning: 1, offline: 2, waiting: 3, ok: 4 };

let fleet = null;
let byName = new Map(); // name → card, for pushes that carry only what changed
const nodes = new Map(); // name → [card it was drawn from, its <li>]: an unchanged card is not drawn again
let skewSeconds = 0; // hub clock − this browser's clock

const filter = document.getElementById("filter");
const sort = document.getElementById("sort");

function loadPrefs() {
  try {
    const saved = JSON.parse(localStorage.getItem(PREFS_KEY) || "{}");
    if (saved.filter) filter.value = saved.filter;
    if (saved.sort) sort.value = saved.sort;
  } catch {
    // nothing kept
  }
}

function savePrefs() {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify({ filter: filter.value, sort: sort.value }));
  } catch {
    // storage refused
  }
}

function matches(card, choice) {
  switch (choice) {
    case "all":
      return true;
    case "offline":
      return !card.online;
    case "attention": // offline is a problem too: a dead machine cannot say so itself
      return card.level === "warning" || card.level === "problem";
    default:
      return card.online && card.state === choice;
  }
}

function compare(a, b) {
  if (sort.value === "rate") {
    return (b.tokens_per_hour ?? -1) - (a.tokens_per_hour ?? -1) || a.name.localeCompare(b.name);
  }
  if (sort.value === "state") {
    const order = (STATE_ORDER[a.level] ?? 9) - (STATE_ORDER[b.level] ?? 9);
    return order || String(a.state).localeCompare(String(b.state)) || a.name.localeCompare(b.name);
  }
  return a.name.localeCompare(b.name);
}

function figure(label, value, wide = false) {
  const row = el("div", wide ? "fig wide" : "fig");
  row.append(el("span", "fig-label", label), el("span", "fig-value", value ?? "–"));
  return row;
}

function renderCard(card) {
  const item = el("li", "machine-card");
  item.dataset.level = card.level;
  item.dataset.name = card.name;
  const link = el("a", "card-link");
  link.href = `/fleet/${encodeURIComponent(card.name)}`;
  const head = el("div", "card-head");
  head.append(el("span", "dot"), el("span", "name", card.name), el("span", "state", card.state));
  link.append(head, el("p", "card-status", card.status_line));
  if (card.mark_text) link.append(el("p", "card-mark", card.mark_text));
  if (card.online) {
    const figs = el("div", "figs");
    // A queue's words ("#1583 · −40/h · front in ~36 h") take the card's whole width, last.
    const queue = card.queue_text != null;
    figs.append(
      figure("layer", card.layer === null || card.layer === undefined ? null : `L${card.layer}`),
      figure("tok/h", card.tokens_per_hour_text ?? card.was_text),
      ...(queue ? [] : [figure("queue", null)]),
      figure("network", card.network_text),
      ...(card.power_text ? [figure("power", card.power_text)] : []),
      ...(queue ? [figure("queue", card.queue_text, true)] : []),
      ...(card.round_text ? [figure("last round", card.round_text, true)] : []),
    );
    link.append(figs);
  } else if (card.last_doing_text) {
    link.append(el("p", "last-doing muted", card.last_doing_text));
  }
  const spark = sparkline(card.spark);
  if (spark) link.append(spark);
  const seen = el("p", "seen muted");
  seen.dataset.seen = card.last_seen_at ?? "";
  seen.textContent = seenText(card);
  link.append(seen);
  item.append(link);
  return item;
}

// The last 6 h of tok/h (a point per 10 minutes, gaps where there was no rate), from zero.
const SVG_NS = "http://www.w3.org/2000/svg";

function sparkline(values) {
  if (!Array.isArray(values) || values.filter((v) => v != null && v > 0).length < 2) return null;
  const width = 120;
  const height = 28;
  const high = Math.max(...values.filter((v) => v != null));
  const step = width / Math.max(values.length - 1, 1);
  let d = "";
  let open = false;
  values.forEach((v, i) => {
    if (v == null) {
      open = false;
      return;
    }
    const x = (i * step).toFixed(1);
    const y = (height - 2 - (v / high) * (height - 4)).toFixed(1);
    d += `${open ? "L" : "M"}${x},${y}`;
    open = true;
  });
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "spark");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "tok/h over the last 6 hours");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", d);
  svg.append(path);
  return svg;
}

function seenText(card) {
  if (card.last_seen_at === null || card.last_seen_at === undefined) return card.last_seen_text;
  const now = Date.now() / 1000 + skewSeconds;
  return `${card.online ? "last report" : "offline · last seen"} ${agoText(now - card.last_seen_at)}`;
}

function render() {
  if (!fleet) return;
  const totals = fleet.totals;
  setText("t-online", `${totals.online}/${totals.machines}`);
  setText("t-training", totals.training);
  setText("t-queued", totals.queued);
  setText("t-idle", totals.idle);
  setText("t-rate", totals.tokens_per_hour_text);
  setText("t-today", totals.today_tokens_text);
  const problem = fleet.alerts_problem || "";
  document.getElementById("alerts-problem").hidden = !problem;
  setText("alerts-problem", problem);
  document.title = `${totals.tokens_per_hour_text} · ${totals.online}/${totals.machines} online · tokwatch fleet`;
  const shown = fleet.machines.filter((card) => matches(card, filter.value)).sort(compare);
  const list = document.getElementById("cards");
  const items = shown.map(cardNode);
  // Moving a thousand nodes costs a phone more than comparing them: only when the order changed.
  const current = list.children;
  if (current.length !== items.length || items.some((item, i) => current[i] !== item)) list.replaceChildren(...items);
  // No machine at all is not "no match": say how to enrol the first, with the steps open.
  const none = fleet.machines.length === 0;
  document.getElementById("none").hidden = !none;
  document.getElementById("empty").hidden = none || shown.length > 0;
  if (none) document.getElementById("add").open = true;
  setText("shown", `${shown.length} of ${fleet.machines.length}`);
}

// The card's <li>, drawn again only when the card changed (a push replaces a changed card's object).
function cardNode(card) {
  const kept = nodes.get(card.name);
  if (kept && kept[0] === card) return kept[1];
  const item = renderCard(card);
  nodes.set(card.name, [card, item]);
  return item;
}

// A push with only what changed: each changed card's fields, the cards gone, the header.
function merge(delta) {
  if (!fleet) return false;
  for (const [name, fields] of Object.entries(delta.cards || {})) {
    const old = byName.get(name);
    byName.set(name, old ? { ...old, ...fields } : fields);
  }
  for (const name of delta.gone || []) {
    byName.delete(name);
    nodes.delete(name);
  }
  fleet.machines = [...byName.values()];
  for (const key of ["totals", "alerts_problem"]) if (key in delta) fleet[key] = delta[key];
  fleet.as_of = delta.as_of;
  return true;
}

function accept(data) {
  if (data && data.delta) {
    if (!merge(data)) return;
  } else {
    if (!data || !Array.isArray(data.machines)) return;
    fleet = data;
    byName = new Map(data.machines.map((card) => [card.name, card]));
  }
  skewSeconds = fleet.as_of - Date.now() / 1000;
  showAuth(false);
  render();
}

function tickAges() {
  for (const node of document.querySelectorAll(".seen[data-seen]")) {
    const name = node.closest(".machine-card")?.dataset.name;
    const card = byName.get(name);
    if (card) node.textContent = seenText(card);
  }
}

async function poll() {
  try {
    const data = await getJson("/api/fleet");
    if (data === null) {
      showAuth(true);
      setConnection("locked", "needs token");
      return;
    }
    accept(data);
    if (!channel.open) setConnection("polling", `polling every ${POLL_MS / 1000} s`);
  } catch {
    setConnection("reconnecting", "hub unreachable");
  }
}

const channel = liveChannel({
  url() {
    const query = token.value ? `?token=${encodeURIComponent(token.value)}` : "";
    return `ws://${location.hostname}:${WS_PORT}/ws/fleet${query}`;
  },
  onOpen: () => setConnection("live", "live"),
  onMessage: accept,
  onClose() {},
  poll,
  pollMs: POLL_MS,
  silenceMs: SILENCE_MS,
});

loadPrefs();
filter.addEventListener("change", () => {
  savePrefs();
  render();
});
sort.addEventListener("change", () => {
  savePrefs();
  render();
});
document.getElementById("controls").addEventListener("submit", (event) => event.preventDefault());
if (TOKEN_REQUIRED && !token.value) showAuth(true);
poll();
channel.start();
setInterval(tickAges, 1000);
