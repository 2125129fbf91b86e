// Runs side by side under a trainer's chart: the followed run and the runs the reader picks (the
// history's, a --compare log's, a log in the followed folder), overlaid on one step axis (or time
// since each began), the smoothing the loss chart's, each run its colour and name in the key and
// the readout, the server's figures in a table beneath. The comparison lives in the URL
// (?compare=ID&compare=ID&x=time), so a bookmark or a link from a phone opens it again. It never
// touches the status line: it reads only /api/runs and /api/compare.

import { makePlot, readColours, smooth, walk } from "./chart-plot.js";

const $ = (id) => document.getElementById(id);
const HEIGHT = 220;
const REFRESH_MS = 60000;
// The page setting that shortens (or lengthens) the refresh: seconds, in localStorage (at least 1).
const REFRESH_SETTING = "tokwatch.compareRefreshSeconds";

function refreshMs() {
  let seconds = NaN;
  try {
    seconds = Number(localStorage.getItem(REFRESH_SETTING));
  } catch {
    // storage refused (a private window): the default
  }
  return Number.isFinite(seconds) && seconds >= 1 ? seconds * 1000 : REFRESH_MS;
}
const WIDE = matchMedia("(min-width: 64rem)");
const COLOUR_VARS = {
  grid: "--chart-grid", axis: "--chart-axis", card: "--chart-card", band: "--chart-band",
  run1: "--compare-1", run2: "--compare-2", run3: "--compare-3", run4: "--compare-4", run5: "--compare-5", run6: "--compare-6",
};

const state = {
  headers: () => ({}),
  listing: null, // the last /api/runs answer
  chosen: [], // run ids picked, in order (the followed run is always drawn first)
  x: "step",
  answer: null, // the last /api/compare answer
  u: null,
  view: null,
  key: "",
  trainer: false,
  inflight: null,
  loadedAt: 0, // ms: when the comparison was last asked for
};

// --- the URL: what is compared, so a bookmark opens it again -----------------------------------

function readUrl() {
  const params = new URLSearchParams(location.search);
  state.chosen = params.getAll("compare").filter(Boolean);
  state.x = params.get("x") === "time" ? "time" : "step";
}

function writeUrl() {
  const params = new URLSearchParams(location.search);
  params.delete("compare");
  params.delete("x");
  for (const id of state.chosen) params.append("compare", id);
  if (state.chosen.length && state.x === "time") params.set("x", "time");
  const query = params.toString();
  // The fragment (a LAN link's token) stays where it is.
  history.replaceState(null, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
}

// --- fetching -----------------------------------------------------------------------------------

async function getJson(url) {
  const response = await fetch(url, { headers: state.headers(), cache: "no-store" });
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) throw new Error((body && body.error) || `HTTP ${response.status}`);
  return body;
}

async function loadListing() {
  try {
    state.listing = await getJson("/api/runs");
  } catch (e) {
    setNote(`The runs could not be listed: ${e.message}`);
    return;
  }
  fillPicker();
}

async function loadComparison() {
  if (!state.chosen.length) {
    clear();
    return;
  }
  const params = new URLSearchParams();
  params.append("run", "live");
  for (const id of state.chosen) params.append("run", id);
  params.set("x", state.x);
  const asked = params.toString();
  state.inflight = asked;
  state.loadedAt = Date.now();
  if (!state.answer) setNote("loading…");
  try {
    const answer = await getJson(`/api/compare?${asked}`);
    if (state.inflight !== asked) return;
    state.answer = answer;
    setNote(null);
    draw();
  } catch (e) {
    if (state.inflight === asked) setNote(`Could not compare: ${e.message}`);
  }
}

// --- the picker -----------------------------------------------------------------------------------

function options() {
  const listing = state.listing || { runs: [], files: [] };
  const found = listing.runs.filter((run) => run.id !== listing.live).map((run) => [run.id, run.name]);
  for (const run of listing.followed || []) found.push([run.id, run.name]);
  for (const file of listing.files) for (const run of file.runs) found.push([run.id, run.name]);
  for (const name of listing.folder_logs || []) found.push([`file:${name}`, `${name} (a log in the folder)`]);
  for (const run of listing.fleet || []) found.push([run.id, run.name]); // on a hub: "rig-b: <run name>"
  return found;
}

function fillPicker() {
  const select = $("compare-run");
  const found = options().filter(([id]) => !state.chosen.includes(id));
  const placeholder = new Option(found.length ? "a run or a log…" : "no other run kept yet", "");
  select.replaceChildren(placeholder, ...found.map(([id, name]) => new Option(name, id)));
  select.disabled = !found.length;
  const folder = state.listing && state.listing.folder;
  $("compare-path").placeholder = folder ? `a log in ${folder}` : "a log given with --compare";
}

function add(id) {
  if (!id || state.chosen.includes(id)) return;
  const most = (state.listing && state.listing.max_runs) || 6;
  if (state.chosen.length + 1 >= most) {
    setNote(`At most ${most} runs at once: remove one first.`);
    return;
  }
  state.chosen.push(id);
  writeUrl();
  fillPicker();
  loadComparison();
}

function remove(id) {
  state.chosen = state.chosen.filter((chosen) => chosen !== id);
  writeUrl();
  fillPicker();
  loadComparison();
}

function setAxis(x) {
  state.x = x;
  for (const button of document.querySelectorAll("#compare-axis button")) {
    button.setAttribute("aria-pressed", String(button.dataset.x === x));
  }
  writeUrl();
  loadComparison();
}

// --- drawing ----------------------------------------------------------------------------------------

function setNote(text) {
  const el = $("compare-note");
  el.hidden = !text;
  el.textContent = text || "";
}

function setReadout(text) {
  const el = $("compare-readout");
  el.textContent = text || (state.answer ? "Hover, tap or use the arrow keys for each run's loss." : "");
  el.classList.toggle("hint", !text);
}

function smoothing() {
  const stored = Number.parseFloat(localStorage.getItem("tokwatch.smoothing"));
  return Number.isFinite(stored) ? stored : 0.6;
}

function colours() {
  return readColours($("compare"), COLOUR_VARS);
}

const runColour = (c, i) => c[`run${(i % 6) + 1}`];

// One x for every run: the union of their x's; each run's losses (and replaced losses, evaluations) as columns.
function build(answer) {
  const runs = answer.runs;
  const xsSet = new Set();
  for (const run of runs) {
    for (const [x] of run.loss) xsSet.add(x);
    for (const points of Object.values(run.evals)) for (const [x] of points) xsSet.add(x);
    for (const o of run.overlaps) for (const [x] of o.replaced) xsSet.add(x);
  }
  const xs = [...xsSet].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const column = (pairs) => {
    const out = new Array(xs.length).fill(null);
    for (const [x, v] of pairs) out[index.get(x)] = v;
    return out;
  };
  return {
    xs,
    runs: runs.map((run) => ({
      name: run.name,
      loss: column(run.loss),
      replaced: run.overlaps.length ? column(run.overlaps.flatMap((o) => o.replaced)) : null,
      overlaps: run.overlaps.map((o) => [o.first, o.last]),
      evals: Object.entries(run.evals).map(([name, points]) => ({ name, values: column(points) })),
    })),
    x: answer.x,
  };
}

function seriesOf(view, c, weight) {
  const series = [{}];
  const data = [view.xs];
  view.runs.forEach((run, i) => {
    const colour = runColour(c, i);
    const smoothed = weight > 0;
    series.push({ label: run.name, stroke: colour, width: smoothed ? 1 : 2, alpha: smoothed ? 0.35 : 1, spanGaps: true, points: { show: false } });
    data.push(run.loss);
    series.push({ label: `${run.name} (smoothed)`, stroke: colour, width: 2, spanGaps: true, show: smoothed, points: { show: false } });
    data.push(smoothed ? smooth(run.loss, weight) : run.loss.map(() => null));
    if (run.replaced) {
      // What a resume logged again: the earlier losses, dashed and faint, inside the marked band.
      series.push({ label: `${run.name} (replaced by the resume)`, stroke: colour, width: 1, dash: [4, 4], alpha: 0.6, spanGaps: true, points: { show: false } });
      data.push(run.replaced);
    }
    for (const ev of run.evals) {
      series.push({ label: `${run.name} ${ev.name}`, stroke: colour, fill: c.card, width: 1.5, paths: () => null, points: { show: true, size: 8, stroke: colour, fill: c.card, width: 2 } });
      data.push(ev.values);
    }
  });
  return { series, data };
}

// The steps a resume logged twice: a band across the plot, in the run's colour.
function overlapPlugin(view, c) {
  return {
    hooks: {
      drawClear: [
        (u) => {
          const ctx = u.ctx;
          view.runs.forEach((run, i) => {
            for (const [first, last] of run.overlaps) {
              const left = u.valToPos(first, "x", true);
              const right = u.valToPos(last, "x", true);
              ctx.save();
              ctx.fillStyle = c.band;
              ctx.fillRect(left, u.bbox.top, Math.max(2, right - left), u.bbox.height);
              ctx.strokeStyle = runColour(c, i);
              ctx.setLineDash([3, 3]);
              ctx.strokeRect(left, u.bbox.top, Math.max(2, right - left), u.bbox.height);
              ctx.restore();
            }
          });
        },
      ],
    },
  };
}

function tick(value) {
  return String(Number(value.toPrecision(4)));
}

function xTick(value) {
  if (state.answer && state.answer.x === "time") {
    const hours = value / 3600;
    return hours >= 1 ? `${Number(hours.toPrecision(3))} h` : `${Number((value / 60).toPrecision(3))} min`;
  }
  return Math.abs(value) >= 1000 ? `${Number((value / 1000).toPrecision(3))}k` : String(value);
}

function describe(u) {
  const idx = u.cursor.idx;
  if (idx == null || u.cursor.left == null || u.cursor.left < 0) return null;
  const view = state.view;
  const x = view.xs[idx];
  const where = view.x === "time" ? `${xTick(x)} in` : `step ${x.toLocaleString()}`;
  const parts = [where];
  const weight = smoothing();
  view.runs.forEach((run, i) => {
    const value = run.loss[idx];
    const evals = run.evals.filter((ev) => ev.values[idx] != null).map((ev) => `${ev.name} ${Number(ev.values[idx].toPrecision(6))}`);
    if (value == null && !evals.length) return;
    let text = `${run.name.split(" · ")[0]}:`;
    if (value != null) {
      text += ` loss ${Number(value.toPrecision(6))}`;
      if (weight > 0) {
        const smoothed = u.data[seriesIndex(view, i) + 1][idx];
        if (smoothed != null) text += ` (smoothed ${Number(smoothed.toPrecision(6))})`;
      }
    }
    if (evals.length) text += ` ${evals.join(", ")}`;
    if (run.replaced && run.replaced[idx] != null) text += ` · replaced ${Number(run.replaced[idx].toPrecision(6))}`;
    parts.push(text);
  });
  return parts.join(" · ");
}

// The data column of run i's logged losses (each run: loss, smoothed, replaced?, evals…).
function seriesIndex(view, i) {
  let index = 1;
  for (let k = 0; k < i; k += 1) index += 2 + (view.runs[k].replaced ? 1 : 0) + view.runs[k].evals.length;
  return index;
}

function width() {
  return Math.max(200, Math.floor($("compare-chart").clientWidth));
}

function draw() {
  const answer = state.answer;
  if (!answer) return;
  const view = build(answer);
  state.view = view;
  const c = colours();
  const weight = smoothing();
  const { series, data } = seriesOf(view, c, weight);
  const key = JSON.stringify([series.map((s) => s.label), c, weight > 0, answer.x, WIDE.matches]);
  if (state.u && key === state.key) {
    state.u.setData(data);
  } else {
    if (state.u) state.u.destroy();
    $("compare-chart").replaceChildren();
    const axis = (values, extra = {}) => ({
      stroke: c.axis, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1, size: 4 },
      font: "12px system-ui, sans-serif", values, ...extra,
    });
    const opts = {
      width: width(),
      height: WIDE.matches ? 300 : HEIGHT,
      legend: { show: false },
      cursor: { y: false, drag: { x: false, y: false, setScale: false }, points: { size: 8, width: 2, fill: c.card } },
      scales: { x: { time: false }, y: { auto: true } },
      series,
      axes: [axis((u, splits) => splits.map(xTick), { space: 60 }), axis((u, splits) => splits.map((v) => (v == null ? "" : tick(v))), { size: 48 })],
      hooks: { setCursor: [(u) => setReadout(describe(u))] },
      plugins: [overlapPlugin(view, c)],
    };
    state.u = makePlot(opts, data, $("compare-chart"));
    state.u.over.addEventListener("mouseleave", () => setReadout(null));
    state.key = key;
  }
  renderKey(c);
  renderTable(answer);
  setReadout(null);
}

function renderKey(c) {
  const key = $("compare-key");
  key.replaceChildren();
  state.answer.runs.forEach((run, i) => {
    const item = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = "chart-key";
    swatch.style.color = runColour(c, i); // CSSOM, which the CSP allows
    swatch.textContent = "━";
    const name = document.createElement("span");
    name.textContent = ` ${run.name}${i === 0 ? " (followed)" : ""}`;
    item.append(swatch, name);
    if (run.overlaps.length) {
      const note = document.createElement("span");
      note.className = "muted";
      note.textContent = ` · resumed: ${run.overlaps.map((o) => `${o.first.toLocaleString()}–${o.last.toLocaleString()}`).join(", ")} logged twice (band)`;
      item.append(note);
    }
    if (i > 0) {
      const drop = document.createElement("button");
      drop.type = "button";
      drop.className = "compare-remove";
      drop.textContent = "remove";
      drop.setAttribute("aria-label", `remove ${run.name}`);
      drop.addEventListener("click", () => remove(state.chosen[i - 1]));
      item.append(" ", drop);
    }
    key.append(item);
  });
}

function renderTable(answer) {
  const [header, ...rows] = answer.table;
  const c = colours();
  const head = document.createElement("tr");
  header.forEach((cell, i) => {
    const th = document.createElement("th");
    th.scope = "col";
    if (i > 0) {
      const swatch = document.createElement("span");
      swatch.className = "chart-key";
      swatch.style.color = runColour(c, i - 1);
      swatch.textContent = "━ ";
      th.append(swatch);
    }
    th.append(cell.split(" · ")[0]);
    head.append(th);
  });
  const body = rows.map((row) => {
    const tr = document.createElement("tr");
    row.forEach((cell, i) => {
      const el = document.createElement(i === 0 ? "th" : "td");
      if (i === 0) el.scope = "row";
      el.textContent = cell;
      tr.append(el);
    });
    return tr;
  });
  $("compare-table-head").replaceChildren(head);
  $("compare-table-body").replaceChildren(...body);
  $("compare-table").hidden = false;
}

function clear() {
  state.answer = null;
  state.view = null;
  if (state.u) state.u.destroy();
  state.u = null;
  state.key = "";
  $("compare-chart").replaceChildren();
  $("compare-key").replaceChildren();
  $("compare-table").hidden = true;
  setNote(null);
  setReadout(null);
}

// --- the page's hooks ----------------------------------------------------------------------------

export function setupCompare({ headers }) {
  setInterval(refreshIfDue, Math.min(refreshMs(), 5000));
  state.headers = headers;
  readUrl();
  const box = $("compare");
  box.open = state.chosen.length > 0;
  box.addEventListener("toggle", () => {
    if (box.open && !state.listing) loadListing();
  });
  $("compare-run").addEventListener("change", (e) => {
    add(e.target.value);
    e.target.value = "";
  });
  $("compare-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const path = $("compare-path").value.trim();
    if (path) add(`file:${path}`);
    $("compare-path").value = "";
  });
  for (const button of document.querySelectorAll("#compare-axis button")) {
    button.setAttribute("aria-pressed", String(button.dataset.x === state.x));
    button.addEventListener("click", () => setAxis(button.dataset.x));
  }
  // The smoothing is the loss chart's: its slider moves both.
  $("smoothing").addEventListener("input", () => draw());
  $("compare-chart").addEventListener("keydown", (e) => {
    if (state.u && walk(state.u, e.key)) e.preventDefault();
  });
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => draw());
  new ResizeObserver(() => {
    if (state.u && state.u.width !== width()) state.u.setSize({ width: width(), height: state.u.height });
  }).observe($("compare-chart"));
}

// Each snapshot: a trainer's page offers the comparison (a miner's has none); nothing else changes.
// An open comparison is asked for again once a minute while the page is seen: the followed run goes on.
export function renderCompare(snapshot) {
  const trainer = Boolean(snapshot.training);
  $("compare").hidden = !trainer;
  if (!trainer) return;
  if (!state.trainer) {
    state.trainer = true;
    if (state.chosen.length) {
      loadListing();
      loadComparison();
    }
    return;
  }
  refreshIfDue();
}

// An open comparison seen on the page is asked for again once its refresh is due: on each snapshot,
// and by a timer of its own, so a quiet followed log (no snapshots) still sees a compared log grow.
function refreshIfDue() {
  const due = Date.now() - state.loadedAt >= refreshMs();
  if (due && state.trainer && state.answer && $("compare").open && document.visibilityState === "visible") loadComparison();
}

// What the plot holds, for the browser tests.
export function inspectCompare() {
  if (!state.view || !state.u) return null;
  return {
    x: state.view.x,
    runs: state.view.runs.map((run, i) => ({
      name: run.name,
      points: run.loss.filter((v) => v != null).length,
      replaced: run.replaced ? run.replaced.filter((v) => v != null).length : 0,
      overlaps: run.overlaps,
      colour: runColour(colours(), i),
    })),
    url: location.search,
    width: state.u.width,
  };
}

// Where x sits on the screen (client px), for the browser tests to hover.
export function comparePoint(x) {
  const rect = state.u.over.getBoundingClientRect();
  return { x: rect.left + state.u.valToPos(x, "x"), y: rect.top + rect.height / 2 };
}
