// A miner's tok/h this week against last week, on the page under its chart: each week's hourly
// means against the time since the week began (the same hour of each week one above the other),
// each layer's median as a dashed line in its week's colour — "vs your usual" made visible — and
// the server's words for each layer's medians beneath. Opened from the URL with ?weeks=last.

import { makePlot, readColours, walk } from "./chart-plot.js";

const $ = (id) => document.getElementById(id);
const DAY = 86400;
const COLOUR_VARS = { grid: "--chart-grid", axis: "--chart-axis", card: "--chart-card", run1: "--compare-1", run2: "--compare-2" };
const state = { headers: () => ({}), answer: null, u: null, key: "", miner: false, loading: false };

function wanted() {
  return new URLSearchParams(location.search).get("weeks") === "last";
}

function writeUrl(open) {
  const params = new URLSearchParams(location.search);
  params.delete("weeks");
  if (open) params.set("weeks", "last");
  const query = params.toString();
  history.replaceState(null, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
}

async function load() {
  if (state.loading) return;
  state.loading = true;
  try {
    const response = await fetch("/api/compare/spans", { headers: state.headers(), cache: "no-store" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    state.answer = await response.json();
    draw();
  } catch (e) {
    $("weeks-lines").replaceChildren(Object.assign(document.createElement("li"), { textContent: `Could not read the history: ${e.message}` }));
  } finally {
    state.loading = false;
  }
}

const compact = (v) => (v >= 1e6 ? `${Number((v / 1e6).toPrecision(3))}M` : v >= 1e3 ? `${Number((v / 1e3).toPrecision(3))}k` : String(v));

function draw() {
  const answer = state.answer;
  if (!answer) return;
  const c = readColours($("weeks"), COLOUR_VARS);
  const [first, second] = answer.spans;
  // Every hour of a week: an hour with no training in it is a gap, never a line across it.
  const xs = Array.from({ length: (7 * DAY) / 3600 }, (_, i) => i * 3600);
  // One column per week: each hour's mean (every layer's points, the layer said in the readout).
  const column = (span) => {
    const byOffset = new Map(span.points.map(([offset, tph]) => [offset, tph]));
    return xs.map((x) => (byOffset.has(x) ? byOffset.get(x) : null));
  };
  const layersOf = (span) => new Map(span.points.map(([offset, , layer]) => [offset, layer]));
  state.layers = [layersOf(first), layersOf(second)];
  // A layer change breaks the line: two hours side by side on different layers are not one stretch
  // (a layer's rates are not another's), so no line joins them. Each break is the hour it starts.
  state.breaks = state.layers.map((layers) =>
    xs.filter((x) => layers.has(x) && layers.has(x - 3600) && layers.get(x) !== layers.get(x - 3600)));
  // uPlot's gaps are canvas pixels from one drawn point to the next; the nulls' gaps come in sorted.
  const layerGaps = (i) => (u, sidx, idx0, idx1, nullGaps) => {
    const px = (x) => Math.round(u.valToPos(x, "x", true));
    const extra = state.breaks[i].map((x) => [px(x - 3600), px(x)]);
    return [...nullGaps, ...extra].sort((a, b) => a[0] - b[0]);
  };
  const medians = [first, second].map((span) => Object.entries(span.layers).map(([layer, f]) => [Number(layer), f.median]));
  const data = [xs, column(first), column(second)];
  const key = JSON.stringify([c, xs.length > 0]);
  const medianPlugin = {
    hooks: {
      draw: [
        (u) => {
          const ctx = u.ctx;
          medians.forEach((lines, i) => {
            for (const [, median] of lines) {
              const y = u.valToPos(median, "y", true);
              ctx.save();
              ctx.strokeStyle = i === 0 ? c.run1 : c.run2;
              ctx.lineWidth = 1.5 * devicePixelRatio;
              ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
              ctx.beginPath();
              ctx.moveTo(u.bbox.left, y);
              ctx.lineTo(u.bbox.left + u.bbox.width, y);
              ctx.stroke();
              ctx.restore();
            }
          });
        },
      ],
    },
  };
  if (state.u) state.u.destroy();
  $("weeks-chart").replaceChildren();
  const axis = (values, extra = {}) => ({ stroke: c.axis, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1, size: 4 }, font: "12px system-ui, sans-serif", values, ...extra });
  const top = Math.max(1, ...data[1].filter((v) => v != null), ...data[2].filter((v) => v != null), ...medians.flat().map(([, m]) => m));
  state.u = makePlot({
    width: Math.max(200, Math.floor($("weeks-chart").clientWidth)),
    height: 200,
    legend: { show: false },
    cursor: { y: false, drag: { x: false, y: false, setScale: false }, points: { size: 8, width: 2, fill: c.card } },
    scales: { x: { time: false, range: () => [0, 7 * DAY - 3600] }, y: { range: () => [0, top * 1.12] } },
    series: [
      {},
      { label: first.label, stroke: c.run1, width: 2, points: { show: false }, gaps: layerGaps(0) },
      { label: second.label, stroke: c.run2, width: 2, points: { show: false }, gaps: layerGaps(1) },
    ],
    axes: [
      axis((u, splits) => splits.map((s) => `${u.width < 480 ? "d" : "day "}${Math.floor(s / DAY) + 1}`), { incrs: [DAY, 2 * DAY, 7 * DAY], space: 36 }),
      axis((u, splits) => splits.map(compact), { size: 48 }),
    ],
    hooks: { setCursor: [describe] },
    plugins: [medianPlugin],
  }, data, $("weeks-chart"));
  state.key = key;
  const swatch = (colour, label) => {
    const item = document.createElement("li");
    const mark = document.createElement("span");
    mark.className = "chart-key";
    mark.style.color = colour; // CSSOM, which the CSP allows
    mark.textContent = "━ ";
    item.append(mark, `${label} (dashed: its median on each layer)`);
    return item;
  };
  $("weeks-key").replaceChildren(swatch(c.run1, first.label), swatch(c.run2, second.label));
  const lines = answer.lines.length ? answer.lines : [answer.problem || "no training in either week yet"];
  $("weeks-lines").replaceChildren(...lines.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
}

function describe(u) {
  const idx = u.cursor.idx;
  const out = $("weeks-readout");
  if (idx == null || u.cursor.left == null || u.cursor.left < 0) {
    out.textContent = "";
    return;
  }
  const offset = u.data[0][idx];
  const when = `day ${Math.floor(offset / DAY) + 1}, hour ${Math.floor((offset % DAY) / 3600)}`;
  const parts = state.answer.spans.map((span, i) => {
    const v = u.data[i + 1][idx];
    const layer = state.layers[i].get(offset);
    return `${span.label}: ${v == null ? "no training" : `${Math.round(v).toLocaleString()} tok/h${layer != null ? ` (L${layer})` : ""}`}`;
  });
  out.textContent = [when, ...parts].join(" · ");
}

export function setupWeeks({ headers }) {
  state.headers = headers;
  const box = $("weeks");
  box.open = wanted();
  box.addEventListener("toggle", () => {
    writeUrl(box.open);
    if (box.open && state.miner) load();
  });
  $("weeks-chart").addEventListener("keydown", (e) => {
    if (state.u && walk(state.u, e.key)) e.preventDefault();
  });
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => draw());
  new ResizeObserver(() => {
    const width = Math.max(200, Math.floor($("weeks-chart").clientWidth));
    if (state.u && state.u.width !== width) state.u.setSize({ width, height: state.u.height });
  }).observe($("weeks-chart"));
}

// Each snapshot: a miner's page offers its weeks (a trainer's compares runs instead).
export function renderWeeks(snapshot) {
  const miner = !snapshot.training && snapshot.state !== "unrecognised";
  $("weeks").hidden = !miner;
  if (!miner || state.miner) return;
  state.miner = true;
  if ($("weeks").open) load();
}

// A canvas pixel on the x axis as hours since the span began (to the nearest hour), for the browser tests.
function hourAt(px) {
  return Math.round(state.u.posToVal(px / devicePixelRatio - state.u.bbox.left / devicePixelRatio, "x") / 3600);
}

// What the chart holds, for the browser tests.
export function inspectWeeks() {
  if (!state.u || !state.answer) return null;
  const c = readColours($("weeks"), COLOUR_VARS);
  return {
    spans: state.answer.spans.map((span, i) => ({
      label: span.label,
      points: state.u.data[i + 1].filter((v) => v != null).length,
      // Where the drawn line stops and starts again, in hours since the span began (nulls and layer changes).
      gaps: (state.u.series[i + 1]._paths?.gaps || []).map(([from, to]) => [hourAt(from), hourAt(to)]),
    })),
    colours: [c.run1, c.run2],
    lines: state.answer.lines,
    width: state.u.width,
  };
}
