// A machine's chart on the hub: tok/h over 6 h, 24 h or 7 d from its own history (what its agent
// sent from before the hub knew it, then its reports), its usual rate as a line, what it was doing
// as a strip along the bottom, and its queue position below while it was queued. The same chart
// code as the dashboard's (chart-plot.js, uPlot): axes, hover, touch and the arrow keys.

import { FRAME_COLOURS, makePlot, readColours, timeData, timeOptions, walk } from "./chart-plot.js";

const $ = (id) => document.getElementById(id);
const HEIGHT = 220;
const QUEUE_HEIGHT = 130;
const WIDE = matchMedia("(min-width: 64rem)");
const COLOUR_VARS = {
  ...FRAME_COLOURS,
  usual: "--chart-usual",
  state_training: "--state-training",
  state_idle: "--state-idle",
  state_queued: "--state-queued",
  state_silent: "--state-silent",
};
// The states a machine reports, drawn as four: training (measuring too), queued (waiting to be
// placed), log silent, idle (the rest).
const STRIP = {
  training: "training", measuring: "training", evaluating: "training", working: "training",
  queued: "queued", processing: "queued", confirmed: "queued", registering: "queued", failed: "queued",
  silent: "silent",
};

const state = { plots: [], key: "", chart: null };

function colours() {
  return readColours($("history"), COLOUR_VARS);
}

function clock(t, withDay) {
  const options = withDay ? { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" } : { hour: "numeric", minute: "2-digit" };
  return new Date(t * 1000).toLocaleString([], options);
}

function readout(text) {
  const el = $("chart-readout");
  const shown = text || "hover or tap the chart for values";
  if (el.textContent !== shown) el.textContent = shown;
}

// Runs of buckets in one state; a bucket with no report is in none (the strip's gap: offline).
function bands(chart) {
  const out = [];
  for (const [t, reported] of chart.states) {
    const strip = reported == null ? null : STRIP[reported] || "idle";
    const last = out[out.length - 1];
    if (last && last.state === strip && last.to === t) last.to = t + chart.step_seconds;
    else out.push({ from: t, to: t + chart.step_seconds, state: strip });
  }
  return out.filter((band) => band.state);
}

function layerLabels(chart) {
  const labels = [];
  let shown = null;
  chart.layers.forEach(([t, layer], i) => {
    if (layer != null && layer !== shown && chart.points[i][1] != null) {
      labels.push({ x: t, text: `L${layer}` });
      shown = layer;
    }
  });
  return labels.length > 1 ? labels : [];
}

function specs(chart) {
  const from = chart.points.length ? chart.points[0][0] : chart.as_of - 86400;
  const to = chart.as_of;
  const withDay = to - from > 86400;
  const rate = {
    kind: "time",
    xs: chart.points.map(([t]) => t),
    values: chart.points.map(([, v]) => v),
    from,
    to,
    unit: "tok/h",
    events: [],
    labels: layerLabels(chart),
    bands: bands(chart),
    usual: chart.usual,
    current: null,
    describe: (i) => `${clock(chart.points[i][0], withDay)} · ${chart.points[i][1] == null ? "no rate" : `${Math.round(chart.points[i][1]).toLocaleString()} tok/h`}`
      + (chart.states[i][1] != null ? ` · ${chart.states[i][1]}`
        : chart.since == null || chart.points[i][0] + chart.step_seconds <= chart.since ? " · no data" : " · offline"),
  };
  const out = [{ view: rate, height: WIDE.matches ? 320 : HEIGHT }];
  if (chart.queue.some(([, v]) => v != null)) {
    out.push({
      view: {
        kind: "time",
        xs: chart.queue.map(([t]) => t),
        values: chart.queue.map(([, v]) => v),
        from,
        to,
        unit: "position",
        events: [],
        current: null,
        caption: "queue position",
        describe: (i) => `${clock(chart.queue[i][0], withDay)} · ${chart.queue[i][1] == null ? "not queued" : `queue #${chart.queue[i][1].toLocaleString()}`}`,
      },
      height: QUEUE_HEIGHT,
    });
  }
  return out;
}

function onCursor(u, view) {
  const idx = u.cursor.idx;
  readout(idx == null || u.cursor.left == null || u.cursor.left < 0 ? null : view.describe(idx));
}

export function renderMachineChart(chart) {
  state.chart = chart;
  const empty = !chart.points.some(([, v]) => v != null) && !chart.states.some(([, s]) => s != null);
  $("chart-empty").hidden = !empty;
  const palette = colours();
  const wanted = specs(chart);
  const key = JSON.stringify([wanted.map((s) => [s.height, s.view.unit]), palette, chart.span]);
  if (key === state.key) {
    state.plots.forEach((plot, i) => {
      Object.assign(plot.view, wanted[i].view);
      plot.u.setData(timeData(plot.view));
    });
    return;
  }
  for (const plot of state.plots) plot.u.destroy();
  state.plots = [];
  state.key = key;
  const box = $("chart");
  box.replaceChildren();
  const width = Math.max(200, Math.floor(box.clientWidth));
  for (const spec of wanted) {
    const holder = document.createElement("figure");
    holder.className = "chart-plot";
    if (spec.view.caption) {
      const caption = document.createElement("figcaption");
      caption.textContent = spec.view.caption;
      holder.append(caption);
    }
    box.append(holder);
    const view = { ...spec.view };
    const u = makePlot(timeOptions({ width, height: spec.height }, palette, view, onCursor), timeData(view), holder);
    u.over.addEventListener("mouseleave", () => readout(null));
    state.plots.push({ u, view });
  }
}

export function setupMachineChart() {
  $("chart").addEventListener("keydown", (e) => {
    const plot = state.plots[0];
    if (!plot || !walk(plot.u, e.key)) return;
    e.preventDefault();
    if (e.key === "Escape") readout(null);
  });
  new ResizeObserver(() => {
    const width = Math.max(200, Math.floor($("chart").clientWidth));
    for (const plot of state.plots) if (plot.u.width !== width) plot.u.setSize({ width, height: plot.u.height });
  }).observe($("chart"));
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    if (state.chart) {
      state.key = "";
      renderMachineChart(state.chart);
    }
  });
}

// What the plots hold, for the browser tests.
export function inspectMachineChart() {
  return state.plots.map(({ u, view }) => ({
    unit: view.unit,
    xs: view.xs,
    values: view.values,
    usual: view.usual ?? null,
    bands: (view.bands || []).map((b) => b.state),
    x: [u.scales.x.min, u.scales.x.max],
    y: [u.scales.y.min, u.scales.y.max],
  }));
}
