// A hub machine's page: "compare with…" other machines, their tok/h on one chart against time
// (the page's span), each machine its colour, the legend saying the layers it ran on. The
// machines compared are the page's URL (?compare=NAME&compare=NAME): a link opens them again.

import { makePlot, readColours, timeTicks, walk } from "./chart-plot.js";
import { getJson } from "./hub-common.js";

const $ = (id) => document.getElementById(id);
const COLOUR_VARS = {
  grid: "--chart-grid", axis: "--chart-axis", card: "--chart-card",
  run1: "--compare-1", run2: "--compare-2", run3: "--compare-3", run4: "--compare-4", run5: "--compare-5", run6: "--compare-6",
};
const state = { name: "", chosen: [], answer: null, u: null, key: "", span: () => "24h", asked: 0, drawn: 0 };
const colourOf = (c, i) => c[`run${(i % 6) + 1}`];

function writeUrl() {
  const params = new URLSearchParams(location.search);
  params.delete("compare");
  for (const name of state.chosen) params.append("compare", name);
  const query = params.toString();
  history.replaceState(null, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
}

async function fillPicker() {
  const fleet = await getJson("/api/fleet").catch(() => null);
  if (!fleet) return;
  const others = fleet.machines.map((m) => m.name).filter((n) => n !== state.name && !state.chosen.includes(n));
  const select = $("compare-machine");
  select.replaceChildren(new Option(others.length ? "another machine…" : "no other machine", ""),
    ...others.map((n) => new Option(n, n)));
  select.disabled = !others.length;
}

function currentQuery() {
  const params = new URLSearchParams();
  for (const name of [state.name, ...state.chosen]) params.append("machine", name);
  params.set("span", state.span());
  return String(params);
}

export async function loadCompare() {
  if (!state.chosen.length) {
    if (state.u) state.u.destroy();
    state.u = null;
    state.key = "";
    $("compare-chart").replaceChildren();
    $("compare-key").replaceChildren();
    return;
  }
  // Only the newest answer for what is chosen now is drawn: a late one for the span or machines
  // chosen before never replaces it.
  const asked = currentQuery();
  const order = ++state.asked;
  try {
    const answer = await getJson(`/api/compare/machines?${asked}`);
    if (answer && asked === currentQuery() && order >= state.drawn) {
      state.drawn = order;
      state.answer = answer;
      draw();
    }
  } catch (e) {
    $("compare-readout").textContent = `Could not compare: ${e.message}`;
  }
}

function draw() {
  const answer = state.answer;
  const c = readColours($("compare"), COLOUR_VARS);
  const xs = answer.machines[0].points.map(([t]) => t);
  const data = [xs, ...answer.machines.map((m) => m.points.map(([, v]) => v))];
  const key = JSON.stringify([answer.machines.map((m) => m.name), c, answer.span]);
  if (state.u && key === state.key) {
    state.u.setData(data);
  } else {
    if (state.u) state.u.destroy();
    $("compare-chart").replaceChildren();
    const axis = (values, extra = {}) => ({ stroke: c.axis, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1, size: 4 }, font: "12px system-ui, sans-serif", values, ...extra });
    const compact = (v) => (v >= 1e6 ? `${Number((v / 1e6).toPrecision(3))}M` : v >= 1e3 ? `${Number((v / 1e3).toPrecision(3))}k` : String(v));
    state.u = makePlot({
      width: Math.max(200, Math.floor($("compare-chart").clientWidth)),
      height: 200,
      legend: { show: false },
      cursor: { y: false, drag: { x: false, y: false, setScale: false }, points: { size: 8, width: 2, fill: c.card } },
      scales: { x: { time: true }, y: { range: (u, min, max) => [0, max > 0 ? max * 1.12 : 1] } },
      series: [{}, ...answer.machines.map((m, i) => ({
        label: m.legend, stroke: colourOf(c, i), width: 2,
        // A lone report has no neighbour to draw a line to: a dot shows it.
        points: { show: true, size: 7, fill: colourOf(c, i), filter: (u, si) => isolated(u.data[si]) },
      }))],
      axes: [axis((u, splits, axisIdx, space, incr) => timeTicks(splits, incr), { space: 70 }), axis((u, splits) => splits.map(compact), { size: 48 })],
      hooks: { setCursor: [describe] },
    }, data, $("compare-chart"));
    state.key = key;
  }
  const list = $("compare-key");
  list.replaceChildren(...answer.machines.map((m, i) => {
    const item = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = "compare-swatch";
    swatch.style.color = colourOf(c, i); // CSSOM, which the CSP allows
    swatch.textContent = "━ ";
    item.append(swatch, m.legend, m.usual_text ? ` · ${m.usual_text}` : "");
    if (i > 0) {
      const drop = document.createElement("button");
      drop.type = "button";
      drop.textContent = "remove";
      drop.setAttribute("aria-label", `remove ${m.name}`);
      drop.addEventListener("click", () => {
        state.chosen = state.chosen.filter((n) => n !== m.name);
        writeUrl();
        fillPicker();
        loadCompare();
      });
      item.append(" ", drop);
    }
    return item;
  }));
}

function isolated(values) {
  const found = [];
  values.forEach((v, i) => {
    if (v != null && (i === 0 || values[i - 1] == null) && (i === values.length - 1 || values[i + 1] == null)) found.push(i);
  });
  return found;
}

function describe(u) {
  const idx = u.cursor.idx;
  const out = $("compare-readout");
  if (idx == null || u.cursor.left == null || u.cursor.left < 0) {
    out.textContent = "";
    return;
  }
  const when = new Date(u.data[0][idx] * 1000).toLocaleString([], { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
  const parts = state.answer.machines.map((m, i) => {
    const v = u.data[i + 1][idx];
    return `${m.legend}: ${v == null ? "no report" : `${Math.round(v).toLocaleString()} tok/h`}`;
  });
  out.textContent = [when, ...parts].join(" · ");
}

// name: this page's machine; span: a function giving the page's chart span now.
export function setupCompare({ name, span }) {
  state.name = name;
  state.span = span;
  state.chosen = new URLSearchParams(location.search).getAll("compare").filter((n) => n && n !== name);
  const box = $("compare");
  box.open = state.chosen.length > 0;
  box.addEventListener("toggle", () => {
    if (box.open) fillPicker();
  });
  if (box.open) fillPicker();
  $("compare-machine").addEventListener("change", (e) => {
    const chosen = e.target.value;
    if (chosen && !state.chosen.includes(chosen) && state.chosen.length < 5) {
      state.chosen.push(chosen);
      writeUrl();
      fillPicker();
      loadCompare();
    }
  });
  $("compare-chart").addEventListener("keydown", (e) => {
    if (state.u && walk(state.u, e.key)) e.preventDefault();
  });
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => state.answer && draw());
  new ResizeObserver(() => {
    const width = Math.max(200, Math.floor($("compare-chart").clientWidth));
    if (state.u && state.u.width !== width) state.u.setSize({ width, height: state.u.height });
  }).observe($("compare-chart"));
  loadCompare();
}

// What the chart holds, for the browser tests.
export function inspectCompare() {
  if (!state.u || !state.answer) return null;
  const c = readColours($("compare"), COLOUR_VARS);
  return {
    machines: state.answer.machines.map((m, i) => ({ name: m.name, legend: m.legend, points: m.points.filter(([, v]) => v != null).length, colour: colourOf(c, i) })),
    span: state.answer.span,
    width: state.u.width,
  };
}
