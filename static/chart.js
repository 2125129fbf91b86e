// The rate chart: the last hour from each snapshot (no extra request), and 6 h / 24 h / 7 d / 30 d
// from /api/history one tap away. Step trainers get loss and tok/h (or steps/h) against step.
// The server sends every figure; this file draws them (uPlot: static/vendor/uplot).

import { eventAt, FRAME_COLOURS, makePlot, readColours, timeData, timeOptions, walk } from "./chart-plot.js";
import { caption, hasLoss, stepSpecs } from "./chart-steps.js";

const $ = (id) => document.getElementById(id);

const HOUR = 3600;
// A fetched range is fetched again with a snapshot at most this often.
const REFRESH_MS = 30000;
const HEIGHT = { live: 170, time: 200, loss: 220 };
// Beside the status (style.css's two columns from 64rem): a taller plot.
const WIDE = matchMedia("(min-width: 64rem)");
const height = (kind) => (WIDE.matches ? Math.max(320, HEIGHT[kind]) : HEIGHT[kind]);
const RANGE_WORDS = { "1h": "last hour", "6h": "last 6 h", "24h": "last 24 h", "7d": "last 7 days", "30d": "last 30 days" };
const STEP_RANGE_WORDS = { ...RANGE_WORDS, "30d": "the whole run" };
const COLOUR_VARS = {
  ...FRAME_COLOURS,
  loss: "--chart-loss",
  lossRaw: "--chart-loss-raw",
  lr: "--chart-lr",
  eval: "--chart-eval",
  eval2: "--chart-eval-2",
  roundOk: "--chart-round-ok",
  roundFailed: "--chart-round-failed",
  group: "--chart-group",
  state_training: "--state-training",
  state_idle: "--state-idle",
  state_queued: "--state-queued",
  state_silent: "--state-silent",
};

const state = {
  range: "1h", // "1h" is drawn from the snapshot; the others are fetched
  snapshot: null,
  fetched: null, // the last /api/history answer for state.range
  fetchedAt: 0, // ms
  revision: null, // the snapshot's history_revision when the fetch began: a new one means more to show
  inflight: null, // AbortController of the fetch under way
  historyOff: null, // why longer ranges cannot be had, once the server said so
  plots: [], // [{u, view, spec}]
  shapeKey: "",
  colours: null,
  coloursKey: "",
  chosen: false, // the reader picked a range: a trainer's page no longer opens on its whole run
  smoothing: storedNumber("tokwatch.smoothing", 0.6),
  logY: localStorage.getItem("tokwatch.logY") === "true",
  showLr: localStorage.getItem("tokwatch.showLr") === "true",
};

function storedNumber(key, fallback) {
  const value = Number.parseFloat(localStorage.getItem(key));
  return Number.isFinite(value) && value >= 0 && value < 1 ? value : fallback;
}
let authHeaders = () => ({});

// --- what the page shows around the plots --------------------------------------------------

function setText(id, text) {
  const el = $(id);
  if (el.textContent !== text) el.textContent = text;
}

function setNote(text) {
  $("chart-note").hidden = !text;
  setText("chart-note", text || "");
}

const HINT = "hover or tap the chart for values";

function setReadout(text) {
  const el = $("chart-readout");
  el.classList.toggle("hint", !text);
  setText("chart-readout", text || HINT);
}

function unitOf(snapshot) {
  return snapshot && snapshot.history_unit !== undefined ? snapshot.history_unit : "tok/h";
}

// The stored values as they are: whole tokens, a loss to six significant digits. Rates are
// written with k and M by the server (the status line); here the exact value is the point.
function exact(value, unit) {
  if (value == null) return "no data";
  if (unit === "tok/h" || unit === "steps/h") return `${Math.round(value).toLocaleString()} ${unit}`;
  if (unit === "position") return `#${Math.round(value).toLocaleString()}`;
  return String(Number(value.toPrecision(6)));
}

function clock(t, withDay) {
  const options = withDay
    ? { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" }
    : { hour: "numeric", minute: "2-digit" };
  return new Date(t * 1000).toLocaleString([], options);
}

// --- the cursor: time and value, or an event's text ----------------------------------------

function describe(u, view) {
  const idx = u.cursor.idx;
  const left = u.cursor.left;
  if (idx == null || left == null || left < 0) return null;
  const parts = [];
  if (view.kind === "time") {
    const withDay = view.to - view.from > 24 * HOUR;
    const value = view.values[idx];
    let text = `${clock(view.xs[idx], withDay)} · ${exact(value, view.unit)}`;
    if (view.low && view.high && value != null && view.low[idx] !== view.high[idx]) {
      text += ` (${exact(view.low[idx], "")}–${exact(view.high[idx], "")})`;
    }
    parts.push(text);
    const event = eventAt(u, view.events, left);
    if (event) parts.push(`${clock(event.at, withDay)} ${event.text}`);
  } else if (view.kind === "loss") {
    parts.push(`step ${view.xs[idx]} · loss ${exact(view.loss[idx], "")}`);
    const smoothed = u.data[2][idx];
    if (view.smoothing > 0 && smoothed != null) parts.push(`smoothed ${exact(smoothed, "")}`);
    if (view.lr && view.lr[idx] != null) parts.push(`learning rate ${exact(view.lr[idx], "")}`);
    const event = eventAt(u, view.events, left);
    if (event) parts.push(event.text);
    for (const ev of view.evals) if (ev.values[idx] != null) parts.push(`${ev.name} ${exact(ev.values[idx], "")}`);
  } else {
    parts.push(`step ${view.xs[idx]} · ${exact(view.values[idx], view.unit)}`);
  }
  return parts.join(" · ");
}

function onCursor(u, view) {
  setReadout(describe(u, view));
}

// --- plots ------------------------------------------------------------------------------------

function chartColours() {
  return readColours($("history"), COLOUR_VARS);
}

function boxWidth() {
  return Math.max(200, Math.floor($("chart").clientWidth));
}

// Show these plots: update the ones on screen when they have the same shape, else build anew.
function show(specs) {
  const colours = chartColours();
  const coloursKey = JSON.stringify(colours);
  const shapeKey = JSON.stringify(specs.map((s) => [s.view.kind, s.height, s.shape]));
  if (shapeKey === state.shapeKey && coloursKey === state.coloursKey && state.plots.length === specs.length) {
    state.plots.forEach((plot, i) => {
      Object.assign(plot.view, specs[i].view);
      plot.u.setData(specs[i].data(plot.view));
    });
    return;
  }
  destroy();
  state.shapeKey = shapeKey;
  state.coloursKey = coloursKey;
  state.colours = colours;
  const box = $("chart");
  const width = boxWidth();
  for (const spec of specs) {
    const holder = document.createElement("figure");
    holder.className = "chart-plot";
    if (spec.caption) holder.append(caption(spec, colours));
    box.append(holder);
    const view = { ...spec.view };
    const options = spec.options({ width, height: spec.height }, colours, view, onCursor);
    const u = makePlot(options, spec.data(view), holder);
    u.over.addEventListener("mouseleave", () => setReadout(null));
    state.plots.push({ u, view, spec });
  }
}

function destroy() {
  for (const plot of state.plots) plot.u.destroy();
  state.plots = [];
  state.shapeKey = "";
  $("chart").replaceChildren();
  setReadout(null);
}

function currentRate(snapshot) {
  const rate = snapshot.rate;
  return rate && rate.measured && rate.tokens_per_hour != null ? rate.tokens_per_hour : null;
}

function eventsOf(snapshot) {
  return Array.isArray(snapshot.events) ? snapshot.events : [];
}

// --- the hour, from the snapshot --------------------------------------------------------------

// A layer change breaks the line (a gap at its time): two layers' rates are not one curve. Each
// segment is named by its own layer: the change's `layers` ([from, to]) name the segments on
// either side; the last segment is the current layer's.
function breakAtLayerChanges(points, events, layer) {
  const changes = events.filter((e) => e.kind === "layer_changed").sort((a, b) => a.at - b.at);
  if (!changes.length) return { points, labels: [] };
  const broken = [...points, ...changes.map((e) => [e.at, null])].sort((a, b) => a[0] - b[0]);
  const labels = [];
  const measured = (from, to) => points.some(([t, v]) => v != null && t > from && t < to);
  const first = changes[0].layers;
  if (first && measured(-Infinity, changes[0].at)) {
    labels.push({ x: Math.min(...points.map(([t]) => t)), text: `L${first[0]}` });
  }
  changes.forEach((change, i) => {
    const next = i + 1 < changes.length ? changes[i + 1].at : Infinity;
    const after = change.layers ? change.layers[1] : i + 1 === changes.length ? layer : null;
    if (after != null && (measured(change.at, next) || next === Infinity)) {
      labels.push({ x: change.at, text: `L${after}` });
    }
  });
  return { points: broken, labels };
}

// The states a snapshot's state is drawn as on the band (the history's strips, app/store/queries.py).
const STRIPS = {
  training: "training", measuring: "training", evaluating: "training",
  queued: "queued", processing: "queued", confirmed: "queued", registering: "queued", failed: "queued",
  silent: "silent", idle: "idle", working: "idle", initializing: "idle",
};

// The pauses the timeline dated, [from, to] each: idle from its entry to "passes resumed", the log
// silent from its entry to the line that ended it; one still going runs to ``to``.
function pauses(events, kind, endedBy, going, to) {
  const out = [];
  let since = null;
  for (const e of [...events].sort((a, b) => a.at - b.at)) {
    if (e.kind === kind && since == null) since = e.at;
    else if (e.kind === "resumed" && since != null && e.text.startsWith(endedBy)) {
      out.push([since, e.at]);
      since = null;
    }
  }
  if (since != null && going) out.push([since, to]);
  return out;
}

// A miner's hour as the long ranges draw it: a band per state along the foot, from its points
// (a rate is training), the timeline's pauses, and the current state since it began.
function liveBands(snapshot, points, from, to) {
  if (snapshot.training) return [];
  const events = eventsOf(snapshot);
  const idle = pauses(events, "idle", "passes resumed", snapshot.state === "idle", to);
  const silent = pauses(events, "silent", "", snapshot.state === "silent", to);
  const within = (spans, t) => spans.some(([a, b]) => a <= t && t < b);
  const since = snapshot.state_since;
  const bands = [];
  for (const [t, v] of points) {
    if (t <= from) continue;
    const start = t - 30;
    let strip = null;
    if (v != null) strip = "training";
    else if (within(silent, start)) strip = "silent";
    else if (within(idle, start)) strip = "idle";
    else if (since != null && start >= since) strip = STRIPS[snapshot.state] || null;
    const last = bands[bands.length - 1];
    if (strip && last && last.state === strip && last.to === start) last.to = t;
    else if (strip) bands.push({ from: start, to: t, state: strip });
  }
  return bands;
}

function liveSpec(snapshot) {
  const to = snapshot.as_of;
  const from = to - HOUR;
  const events = eventsOf(snapshot).filter((e) => e.at >= from && e.at <= to);
  const broken = breakAtLayerChanges((snapshot.history || []).filter(([t]) => t > from && t <= to), events, snapshot.layer);
  const points = broken.points;
  const current = currentRate(snapshot);
  // The headline's value sits on the chart: the line runs on to it at the snapshot's time.
  if (current != null && (points.length === 0 || points[points.length - 1][0] < to)) points.push([to, current]);
  const view = {
    kind: "time",
    xs: points.map(([t]) => t),
    values: points.map(([, v]) => v),
    from,
    to,
    unit: unitOf(snapshot),
    events,
    labels: broken.labels,
    current: current == null ? null : { x: to, y: current },
    bands: liveBands(snapshot, (snapshot.history || []).filter(([t]) => t > from && t <= to), from, to),
  };
  return { view, height: height("live"), shape: "live", options: timeOptions, data: timeData };
}

function drawLive() {
  const snapshot = state.snapshot;
  $("loss-controls").hidden = true;
  $("state-keys").hidden = true;
  setText("history-title", `${unitOf(snapshot) || "rate"}, last hour`);
  const spec = liveSpec(snapshot);
  const measured = spec.view.values.some((v) => v != null);
  if (!measured) {
    destroy();
    if (unitOf(snapshot) === null) setNote("This log gives no token counts: a longer range shows loss and steps/h.");
    else setNote(state.historyOff || "no measured rate yet");
    return;
  }
  setNote(state.historyOff);
  show([spec]);
  $("state-keys").hidden = !spec.view.bands.length;
}

// --- longer ranges, from the history --------------------------------------------------------

function series(json, name) {
  return (json.series && json.series[name]) || [];
}

// The buckets' rates with a gap where the layer changes, and each layer's segment labelled.
function byLayer(json) {
  const mean = series(json, "tokens_per_hour");
  const low = series(json, "tokens_per_hour_min");
  const high = series(json, "tokens_per_hour_max");
  const layers = series(json, "layer");
  const out = { xs: [], values: [], low: [], high: [], labels: [] };
  let shown = null; // the layer of the segment being drawn
  mean.forEach(([t, v], i) => {
    const layer = layers[i] ? layers[i][1] : null;
    if (v != null && layer != null && layer !== shown) {
      if (shown != null) {
        // A gap between the two buckets: the line stops and starts again.
        out.xs.push(t - json.bucket_seconds / 2);
        out.values.push(null);
        out.low.push(null);
        out.high.push(null);
      }
      out.labels.push({ x: t, text: `L${layer}` });
      shown = layer;
    }
    out.xs.push(t);
    out.values.push(v);
    out.low.push(low[i] ? low[i][1] : null);
    out.high.push(high[i] ? high[i][1] : null);
  });
  return out;
}

function timeSpec(json, snapshot) {
  const band = json.bucket_seconds > 30;
  const current = currentRate(snapshot);
  const to = Math.max(json.to + json.bucket_seconds, snapshot.as_of);
  const rates = byLayer(json);
  const view = {
    kind: "time",
    xs: rates.xs,
    values: rates.values,
    labels: rates.labels.length > 1 ? rates.labels : [],
    low: band ? rates.low : null,
    high: band ? rates.high : null,
    from: json.from,
    to,
    unit: "tok/h",
    events: json.events || [],
    bands: json.bands || [],
    current: current == null ? null : { x: snapshot.as_of, y: current },
  };
  return { view, height: height("time"), shape: band ? "band" : "line", options: timeOptions, data: timeData };
}

// A miner's place in the registration queue over the range: lower is nearer the front. The points
// are the logged polls, with a null where they stopped (json.queue): silence is a gap, not a position.
function queueSpec(json, snapshot) {
  const points = json.queue || series(json, "queue_position");
  const position = queuedNow(snapshot) ? snapshot.queue.position : null;
  const view = {
    kind: "time",
    xs: points.map(([t]) => t),
    values: points.map(([, v]) => v),
    from: json.from,
    to: Math.max(json.to + json.bucket_seconds, snapshot.as_of),
    unit: "position",
    events: json.events || [],
    bands: json.bands || [],
    current: position == null ? null : { x: snapshot.as_of, y: position },
  };
  return { view, height: height("time"), shape: "queue", caption: "queue position", options: timeOptions, data: timeData };
}

function queuedNow(snapshot) {
  return snapshot.state === "queued" && Boolean(snapshot.queue) && !state.historyOff;
}

// Waiting to be placed, polling or not (a silent queued miner keeps its queue chart): its hour is the history's.
function inQueue(snapshot) {
  return Boolean(snapshot.queue) && !state.historyOff;
}

function whyOff(status) {
  if (status.problem) return `Longer ranges are not available: ${status.problem}`;
  if (state.snapshot && state.snapshot.source.demo) {
    return "Longer ranges are empty in the demo: it keeps no history on purpose. With --log PATH, tokwatch keeps your log's.";
  }
  return "Longer ranges are not available: this tokwatch keeps no history (it was started with --no-history).";
}

function drawFetched() {
  const json = state.fetched;
  const snapshot = state.snapshot;
  if (!json || !snapshot) return;
  const status = json.status || {};
  const steps = json.steps;
  // No history: a trainer's run is drawn from what the server read since it started (it says which steps).
  const fromMemory = status.mode === "off" && Boolean(steps) && json.range === "30d";
  if (status.mode === "off" && !fromMemory) {
    state.historyOff = whyOff(status);
    markRanges();
    selectRange("1h");
    return;
  }
  state.historyOff = fromMemory ? whyOff(status) : null;
  markRanges();
  $("loss-controls").hidden = !steps || !hasLoss(steps);
  $("show-lr-label").hidden = !(steps && steps.lr && steps.lr.length);
  let empty;
  if (steps && (steps.loss.length || steps.tokens_per_hour.length)) {
    const rated = steps.tokens_per_hour.some(([, v]) => v != null) || steps.steps_per_hour.some(([, v]) => v != null);
    const span = fromMemory ? "read since tokwatch started" : STEP_RANGE_WORDS[json.range];
    const plotted = !hasLoss(steps) && rated ? "rate" : rated ? "loss and rate" : "loss";
    setText("history-title", `${plotted} by step, ${span}`);
    show(stepSpecs(steps, snapshot, { smoothing: state.smoothing, logY: state.logY, showLr: state.showLr, lossHeight: height("loss") }));
    $("state-keys").hidden = true;
    // Steps, but neither a loss nor a rate to draw (a run that died at its first bar): the plot is empty, say so.
    empty = !rated && !hasLoss(steps);
  } else {
    const rated = series(json, "tokens_per_hour").some(([, v]) => v != null);
    const queued = series(json, "queue_position").some(([, v]) => v != null) || inQueue(snapshot);
    const specs = [];
    if (rated || !queued) specs.push(timeSpec(json, snapshot));
    if (queued) specs.push(queueSpec(json, snapshot));
    setText("history-title", `${rated || !queued ? "tok/h" : "queue position"}, ${RANGE_WORDS[json.range]}`);
    show(specs);
    $("state-keys").hidden = !(json.bands || []).length;
    empty = !rated && !queued && !(json.events || []).length;
  }
  const importing = status.importing ? "importing older logs…" : null;
  // Until the import has read a long run, its whole run is drawn from a sample (the note says so).
  const sampled = steps && steps.loss_sampled ? steps.sample_text : null;
  if (fromMemory) setNote(steps.memory_text);
  else setNote(status.problem || sampled || importing || (empty ? "nothing recorded in this range yet" : status.notice || null));
}

async function load() {
  if (state.inflight) state.inflight.abort();
  const controller = new AbortController();
  state.inflight = controller;
  const range = state.range;
  state.fetchedAt = Date.now();
  state.revision = revisionOf(state.snapshot);
  try {
    // "no-cache": asked again each time, with the ETag it had, so an unchanged range is a 304.
    const response = await fetch(`/api/history?range=${encodeURIComponent(range)}`, {
      headers: authHeaders(),
      cache: "no-cache",
      signal: controller.signal,
    });
    if (range !== state.range) return;
    if (response.status === 401) {
      setNote("The history needs this browser's token: open the link tokwatch printed.");
      return;
    }
    if (!response.ok) {
      setNote(`The history could not be read (HTTP ${response.status}).`);
      return;
    }
    state.fetched = await response.json();
    drawFetched();
  } catch {
    if (controller.signal.aborted) return;
    setNote("The history could not be fetched: the dashboard did not answer.");
  } finally {
    if (state.inflight === controller) {
      state.inflight = null;
      // The server had more while this answer was on its way: ask again at once.
      if (!controller.signal.aborted && range === state.range && advanced(state.snapshot)) load();
    }
  }
}

const revisionOf = (snapshot) => (snapshot && snapshot.history_revision != null ? snapshot.history_revision : null);

// The history has more to show than the range last fetched (the import's progress, pushed).
function advanced(snapshot) {
  const revision = revisionOf(snapshot);
  return revision !== null && revision !== state.revision;
}

// --- ranges -----------------------------------------------------------------------------------

function markRanges() {
  for (const button of document.querySelectorAll("#chart-ranges button")) {
    const range = button.dataset.range;
    button.setAttribute("aria-pressed", String(range === state.range));
    // Without a history a trainer's whole run still comes from the server's memory.
    const fromMemory = range === "30d" && state.snapshot && state.snapshot.training;
    const off = range !== "1h" && !fromMemory && state.historyOff;
    button.classList.toggle("off", Boolean(off));
    if (off) button.title = state.historyOff;
    else button.removeAttribute("title");
  }
}

// For a step trainer the longest range is its whole run (the API gives the latest stage within it).
function labelRanges(steps) {
  const longest = document.querySelector('#chart-ranges button[data-range="30d"]');
  const text = steps ? "run" : "30 d";
  if (longest.textContent !== text) longest.textContent = text;
}

function selectRange(range) {
  if (state.inflight) state.inflight.abort();
  state.range = range;
  state.fetched = null;
  markRanges();
  if (!state.snapshot) return;
  if (range === "1h" && !inQueue(state.snapshot)) {
    drawLive();
    return;
  }
  // Whatever showed stays until the new range arrives; the note says it is coming.
  setNote("loading…");
  load();
}

// --- the keyboard: arrows walk the first plot's points, as hover does --------------------------

function onKey(e) {
  const plot = state.plots[0];
  if (!plot || !walk(plot.u, e.key)) return;
  e.preventDefault();
  if (e.key === "Escape") setReadout(null);
}

// --- the page's hooks -------------------------------------------------------------------------

// headers: a function giving the request headers /api/snapshot gets (the token, when there is one).
export function setupChart({ headers }) {
  authHeaders = headers;
  for (const button of document.querySelectorAll("#chart-ranges button")) {
    button.addEventListener("click", () => {
      state.chosen = true;
      if (button.dataset.range !== state.range || state.historyOff) selectRange(button.dataset.range);
    });
  }
  setupLossControls();
  setReadout(null);
  $("chart").addEventListener("keydown", onKey);
  // A theme change redraws at once with the other theme's colours (show() compares them).
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    if (state.snapshot) renderChart(state.snapshot);
  });
  new ResizeObserver(() => {
    const width = boxWidth();
    for (const plot of state.plots) {
      if (plot.u.width !== width) plot.u.setSize({ width, height: plot.u.height });
    }
  }).observe($("chart"));
}

// --- the loss plot's smoothing slider and log scale: the reader's, kept in this browser --------

function setupLossControls() {
  const slider = $("smoothing");
  const shown = $("smoothing-value");
  slider.value = String(state.smoothing);
  shown.textContent = state.smoothing.toFixed(2);
  slider.addEventListener("input", () => {
    const value = Number.parseFloat(slider.value);
    const wasOn = state.smoothing > 0;
    state.smoothing = value;
    shown.textContent = value.toFixed(2);
    localStorage.setItem("tokwatch.smoothing", String(value));
    const plot = state.plots.find((p) => p.view.kind === "loss");
    if (plot && wasOn === value > 0) {
      plot.view.smoothing = value;
      plot.u.setData(plot.spec.data(plot.view), false);
    } else {
      drawFetched();
    }
  });
  const showLr = $("show-lr");
  showLr.checked = state.showLr;
  showLr.addEventListener("change", () => {
    state.showLr = showLr.checked;
    localStorage.setItem("tokwatch.showLr", String(state.showLr));
    drawFetched();
  });
  const logY = $("log-y");
  logY.checked = state.logY;
  logY.addEventListener("change", () => {
    state.logY = logY.checked;
    localStorage.setItem("tokwatch.logY", String(state.logY));
    drawFetched();
  });
}

// Each snapshot: redraw the hour, or move the current value on a longer range (and fetch it
// again when the server says it has more, or when it is REFRESH_MS old).
export function renderChart(snapshot) {
  state.snapshot = snapshot;
  const card = $("history");
  // A log no format claims has no rate to draw: no empty card; the details say what to do.
  card.hidden = snapshot.state === "unrecognised" || (unitOf(snapshot) === null && !snapshot.training);
  if (card.hidden) return;
  labelRanges(Boolean(snapshot.training));
  // A trainer's page opens on the loss of its whole run (when there is a history to read it from).
  if (snapshot.training && !state.chosen && state.range === "1h") {
    state.chosen = true;
    selectRange("30d");
    return;
  }
  // A queued miner's hour is its positions, from the history (written every 30 s).
  if (state.range === "1h" && !inQueue(snapshot)) {
    drawLive();
    return;
  }
  if ((advanced(snapshot) || Date.now() - state.fetchedAt >= REFRESH_MS) && !state.inflight) {
    load();
    return;
  }
  // Colours may have changed (theme, dimmed while offline): draw again with the newest snapshot.
  drawFetched();
}

// Where a value sits on the screen (client px), for the browser tests to point at.
export function chartPoint(index, x, y) {
  const { u } = state.plots[index];
  const rect = u.over.getBoundingClientRect();
  return { x: rect.left + u.valToPos(x, "x"), y: rect.top + (y == null ? rect.height / 2 : u.valToPos(y, "y")) };
}

// What the plots hold, for the browser tests: kinds, points, scales, events.
export function inspectChart() {
  return state.plots.map(({ u, view }) => ({
    kind: view.kind,
    points: view.kind === "loss" ? view.loss.filter((v) => v != null).length : view.values.filter((v) => v != null).length,
    lossPoints: view.kind === "loss" ? view.xs.map((x, i) => [x, view.loss[i]]).filter(([, v]) => v != null) : null,
    evalPoints: view.kind === "loss" ? Object.fromEntries(view.evals.map((ev) => [ev.name, ev.values.filter((v) => v != null).length])) : null,
    bucketSteps: view.bucketSteps || null,
    unit: view.unit || null,
    values: view.kind === "loss" ? null : view.values,
    xs: view.kind === "loss" ? null : view.xs,
    bands: (view.bands || []).map((band) => band.state),
    labels: (view.labels || []).map((label) => label.text),
    // Runs of points the line joins (a null between two runs is a gap).
    segments: (view.kind === "loss" ? view.loss : view.values).filter((v, i, all) => v != null && (i === 0 || all[i - 1] == null)).length,
    logY: u.scales.y.distr === 3,
    lrPoints: view.lr ? view.lr.filter((v) => v != null).length : null,
    x: [u.scales.x.min, u.scales.x.max],
    y: [u.scales.y.min, u.scales.y.max],
    current: view.current,
    events: (view.events || []).length,
    xTicks: view.xTicks || null,
    bbox: { ...u.bbox },
  }));
}
