// uPlot options for tokwatch's charts: a rate against time (a line from zero, the current value
// marked, events as markers, gaps as gaps), and a step trainer's loss and rate against step.
// Figures come from the server; the only figures written here are axis ticks (see compact()).

const uPlot = window.uPlot; // static/vendor/uplot, loaded by a classic script before the modules

// The CSS custom properties every chart's frame is drawn in (style.css, base.css); each page adds its own.
export const FRAME_COLOURS = {
  line: "--chart-line",
  band: "--chart-band",
  grid: "--chart-grid",
  axis: "--chart-axis",
  event: "--chart-event",
  now: "--chart-now",
  card: "--chart-card",
};

// The colours named by ``vars`` ({name: custom property}) as the element's style resolves them now.
export function readColours(el, vars) {
  const style = getComputedStyle(el);
  return Object.fromEntries(Object.entries(vars).map(([name, prop]) => [name, style.getPropertyValue(prop).trim()]));
}

const EVENT_HIT_PX = 10; // how close (CSS px) the cursor must be to an event to show its text

// Axis ticks only: the status line writes rates as 358k and 1.2M (app/text.py's compact), and a
// tick is not a figure the server sends, so this is the one place the page writes a number itself.
// Ticks are round values, so up to three significant digits say them exactly (1.25M, not 1.2M).
export function compact(value) {
  const abs = Math.abs(value);
  const [scaled, suffix] =
    abs >= 1e9 ? [value / 1e9, "G"] : abs >= 1e6 ? [value / 1e6, "M"] : abs >= 1e3 ? [value / 1e3, "k"] : [value, ""];
  return `${Number(scaled.toPrecision(3))}${suffix}`;
}

// Step ticks: compact while that tells them apart (17.1k, 17.2k); a narrow range of large steps
// (a run that died at step 17,068) in full, whole steps only.
function stepTicks(view, splits) {
  const short = splits.map(compact);
  const ticks = new Set(short).size === short.length ? short : splits.map((v) => (Number.isInteger(v) ? String(v) : ""));
  view.xTicks = ticks; // what is drawn, for the browser tests to read
  return ticks;
}

// A loss or an eval figure on an axis: as few digits as the ticks need.
function plain(value) {
  return String(Number(value.toPrecision(4)));
}

// Time ticks in this browser's language and clock (12 or 24 hours, as its locale writes them):
// times within a day, the date under the first tick of each new day, and dates alone once the
// ticks are a day or more apart. uPlot's own default is a US format with a date under the first
// tick whatever the range.
const DAY = 86400;
const tickTime = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });
const tickDay = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });

export function timeTicks(splits, incrSeconds) {
  if (incrSeconds >= DAY) return splits.map((t) => tickDay.format(t * 1000));
  let previousDay = null;
  return splits.map((t) => {
    const when = new Date(t * 1000);
    const day = when.toDateString();
    const label = tickTime.format(when);
    const newDay = previousDay !== null && day !== previousDay;
    previousDay = day;
    return newDay ? `${label}\n${tickDay.format(when)}` : label;
  });
}

// Indices of points with no neighbour on either side: a line cannot show them, so a dot does.
function isolated(values) {
  const found = [];
  for (let i = 0; i < values.length; i += 1) {
    if (values[i] == null) continue;
    const before = i > 0 ? values[i - 1] : null;
    const after = i < values.length - 1 ? values[i + 1] : null;
    if (before == null && after == null) found.push(i);
  }
  return found;
}

function lineSeries(label, colour, { width = 2, spanGaps = false, scale = "y" } = {}) {
  return {
    label,
    scale,
    stroke: colour,
    width,
    spanGaps,
    points: {
      show: false,
      size: 7,
      fill: colour,
      stroke: colour,
      filter: (u, seriesIdx) => isolated(u.data[seriesIdx]),
    },
  };
}

function pointSeries(label, colour, scale) {
  return {
    label,
    scale,
    stroke: colour,
    fill: colour,
    width: 1.5,
    paths: () => null,
    points: { show: true, size: 8, stroke: colour, fill: colour, width: 1.5 },
  };
}

function axis(colours, values, extra = {}) {
  return {
    stroke: colours.axis,
    grid: { stroke: colours.grid, width: 1 },
    ticks: { stroke: colours.grid, width: 1, size: 4 },
    font: "12px system-ui, sans-serif",
    values,
    ...extra,
  };
}

// The top of a y-axis from zero: the data and the current value both under it, with headroom.
function upperBound(values, current) {
  let max = current == null ? 0 : current;
  for (const v of values) if (v != null && v > max) max = v;
  return max > 0 ? max * 1.12 : 1;
}

function lossRange(min, max, current) {
  let [lo, hi] = [min, max];
  if (current != null) [lo, hi] = [lo == null ? current : Math.min(lo, current), hi == null ? current : Math.max(hi, current)];
  if (lo == null || hi == null) return [0, 1];
  return uPlot.rangeNum(lo, hi, 0.1, true);
}

// Events (registration, layer change, restart, idle, log switched…) as dashed vertical lines with
// a dot at the top; the current value as a ring on a faint dashed line across the plot.
function markersPlugin(view, colours) {
  return {
    hooks: {
      draw: [
        (u) => {
          const { ctx } = u;
          const { left, top, width, height } = u.bbox;
          const dpr = uPlot.pxRatio;
          ctx.save();
          ctx.beginPath();
          ctx.rect(left, top, width, height);
          ctx.clip();
          for (const event of view.events || []) {
            if (event.kind === "round") continue; // (drawn below, by outcome)
            const x = Math.round(u.valToPos(event.at, "x", true));
            if (x < left - 1 || x > left + width + 1) continue;
            ctx.strokeStyle = colours.event;
            ctx.fillStyle = colours.event;
            ctx.lineWidth = 1.5 * dpr;
            ctx.setLineDash([4 * dpr, 3 * dpr]);
            ctx.beginPath();
            ctx.moveTo(x, top);
            ctx.lineTo(x, top + height);
            ctx.stroke();
            ctx.setLineDash([]);
            ctx.beginPath();
            ctx.arc(x, top + 4 * dpr, 4 * dpr, 0, 2 * Math.PI);
            ctx.fill();
          }
          if ((view.rounds || []).length) drawRounds(u, view.rounds, colours);
          // What the machine was doing, as a strip along the bottom (a machine page on the hub):
          // training, idle, queued; no strip where it did not report (offline).
          for (const band of view.bands || []) {
            const colour = colours[`state_${band.state}`];
            if (!colour) continue;
            const x0 = Math.max(left, u.valToPos(band.from, "x", true));
            const x1 = Math.min(left + width, u.valToPos(band.to, "x", true));
            if (x1 <= x0) continue;
            ctx.fillStyle = colour;
            ctx.fillRect(x0, top + height - 6 * dpr, x1 - x0, 6 * dpr);
          }
          // The machine's usual rate: a long-dashed line across, named at its right end.
          if (view.usual != null) {
            const y = Math.round(u.valToPos(view.usual, "y", true));
            ctx.strokeStyle = colours.usual || colours.axis;
            ctx.lineWidth = 1.5 * dpr;
            ctx.setLineDash([8 * dpr, 5 * dpr]);
            ctx.beginPath();
            ctx.moveTo(left, y);
            ctx.lineTo(left + width, y);
            ctx.stroke();
            ctx.setLineDash([]);
            ctx.font = `${12 * dpr}px system-ui, sans-serif`;
            ctx.fillStyle = colours.usual || colours.axis;
            ctx.textAlign = "right";
            ctx.textBaseline = "bottom";
            ctx.fillText("usual", left + width - 4 * dpr, y - 3 * dpr);
            ctx.textAlign = "left";
          }
          // Each segment's name at its start (the layer a rate was measured on).
          ctx.font = `${12 * dpr}px system-ui, sans-serif`;
          ctx.fillStyle = colours.axis;
          ctx.textBaseline = "top";
          for (const label of view.labels || []) {
            const x = Math.max(left, Math.round(u.valToPos(label.x, "x", true)));
            if (x > left + width - 20 * dpr) continue;
            ctx.fillText(label.text, x + 4 * dpr, top + 10 * dpr);
          }
          const now = view.current;
          if (now && now.y != null && now.x != null) {
            const x = u.valToPos(now.x, "x", true);
            const y = u.valToPos(now.y, now.scale || "y", true);
            ctx.strokeStyle = colours.now;
            ctx.lineWidth = 1 * dpr;
            ctx.setLineDash([2 * dpr, 3 * dpr]);
            ctx.beginPath();
            ctx.moveTo(left, y);
            ctx.lineTo(left + width, y);
            ctx.stroke();
            ctx.setLineDash([]);
            ctx.lineWidth = 2.5 * dpr;
            ctx.fillStyle = colours.card;
            ctx.beginPath();
            ctx.arc(Math.min(x, left + width - 5 * dpr), y, 5 * dpr, 0, 2 * Math.PI);
            ctx.fill();
            ctx.stroke();
          }
          ctx.restore();
        },
      ],
    },
  };
}

// A collaborator's averaging rounds on the loss plot: a faint line at the step each began, a marker at
// the foot (ok a dot, failed a triangle, under way a ring), and the group's size as a stepped line in the
// plot's lowest band (its own scale, from zero to the largest group), named at its right end.
function drawRounds(u, rounds, colours) {
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const dpr = uPlot.pxRatio;
  const foot = top + height - 7 * dpr;
  const band = Math.min(height * 0.28, 56 * dpr);
  const most = Math.max(2, ...rounds.map((r) => r.peers || 0));
  const gy = (peers) => foot - 6 * dpr - (peers / most) * band;
  const xOf = (r) => Math.round(u.valToPos(r.at, "x", true));
  const placed = rounds.filter((r) => { const x = xOf(r); return x >= left - 1 && x <= left + width + 1; })
    .sort((a, b) => a.at - b.at);
  const sized = placed.filter((r) => r.peers != null);
  if (sized.length) {
    ctx.strokeStyle = colours.group;
    ctx.lineWidth = 2 * dpr;
    ctx.beginPath();
    sized.forEach((r, i) => {
      const x = xOf(r);
      if (i === 0) ctx.moveTo(x, gy(r.peers));
      else {
        ctx.lineTo(x, gy(sized[i - 1].peers));
        ctx.lineTo(x, gy(r.peers));
      }
    });
    const last = sized[sized.length - 1];
    ctx.lineTo(left + width, gy(last.peers));
    ctx.stroke();
    ctx.font = `${11 * dpr}px system-ui, sans-serif`;
    ctx.fillStyle = colours.group;
    ctx.textAlign = "right";
    ctx.textBaseline = "bottom";
    ctx.fillText(`${last.peers} peers`, left + width - 4 * dpr, gy(last.peers) - 3 * dpr);
    ctx.textAlign = "left";
  }
  for (const r of placed) {
    const x = xOf(r);
    const colour = r.outcome === "failed" ? colours.roundFailed : r.outcome === "ok" ? colours.roundOk : colours.axis;
    ctx.strokeStyle = colour;
    ctx.globalAlpha = 0.35;
    ctx.lineWidth = 1 * dpr;
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, foot);
    ctx.stroke();
    ctx.globalAlpha = 1;
    ctx.fillStyle = colour;
    ctx.lineWidth = 2 * dpr;
    ctx.beginPath();
    if (r.outcome === "failed") {
      const s = 6 * dpr;
      ctx.moveTo(x, foot - s);
      ctx.lineTo(x + s, foot + s * 0.7);
      ctx.lineTo(x - s, foot + s * 0.7);
      ctx.closePath();
      ctx.fill();
    } else if (r.outcome === "ok") {
      ctx.arc(x, foot, 4.5 * dpr, 0, 2 * Math.PI);
      ctx.fill();
    } else {
      ctx.arc(x, foot, 4.5 * dpr, 0, 2 * Math.PI);
      ctx.stroke();
    }
  }
}

// The event nearest the cursor, when it is within EVENT_HIT_PX.
export function eventAt(u, events, left) {
  let best = null;
  let bestDistance = EVENT_HIT_PX + 1;
  for (const event of events || []) {
    const distance = Math.abs(u.valToPos(event.at, "x") - left);
    if (distance < bestDistance) {
      best = event;
      bestDistance = distance;
    }
  }
  return best;
}

// A finger dragging across the plot moves the cursor (uPlot follows the mouse only); vertical
// swipes still scroll the page (touch-action: pan-y in style.css).
function touchPlugin() {
  return {
    hooks: {
      init: [
        (u) => {
          const over = u.over;
          const follow = (e) => {
            if (e.pointerType !== "touch") return;
            const rect = over.getBoundingClientRect();
            const left = Math.max(0, Math.min(rect.width, e.clientX - rect.left));
            const top = Math.max(0, Math.min(rect.height, e.clientY - rect.top));
            u.setCursor({ left, top });
          };
          over.addEventListener("pointerdown", follow);
          over.addEventListener("pointermove", follow);
        },
      ],
    },
  };
}

const WALK_KEYS = ["ArrowLeft", "ArrowRight", "Home", "End", "Escape"];

// The keyboard's cursor: arrows step to the previous or next point with data, Home and End go to
// the first and last, Escape leaves. False for any other key (the page keeps it).
export function walk(u, key) {
  if (!WALK_KEYS.includes(key)) return false;
  if (key === "Escape") {
    u.setCursor({ left: -10, top: -10 });
    return true;
  }
  const xs = u.data[0];
  const filled = (i) => u.data.slice(1).some((values) => values[i] != null);
  const last = xs.length - 1;
  let idx = u.cursor.idx;
  if (key === "Home" || (idx == null && key === "ArrowRight")) idx = -1;
  else if (key === "End" || idx == null) idx = last + 1;
  const step = key === "ArrowLeft" || key === "End" ? -1 : 1;
  do idx += step;
  while (idx >= 0 && idx <= last && !filled(idx));
  if (idx >= 0 && idx <= last) u.setCursor({ left: u.valToPos(xs[idx], "x"), top: u.over.clientHeight / 2 });
  return true;
}

function base(size, colours, view, onCursor) {
  return {
    width: size.width,
    height: size.height,
    legend: { show: false },
    cursor: {
      y: false,
      drag: { x: false, y: false, setScale: false },
      points: { size: 8, width: 2, fill: colours.card },
    },
    hooks: { setCursor: [(u) => onCursor(u, view)] },
    plugins: [markersPlugin(view, colours), touchPlugin()],
  };
}

// A rate against time. view: {xs, values, low, high, from, to, events, current, unit}.
export function timeOptions(size, colours, view, onCursor) {
  const withBand = Boolean(view.low && view.high);
  const series = [{}, lineSeries(view.unit, colours.line)];
  if (withBand) {
    series.push({ label: "low", stroke: colours.band, width: 0, points: { show: false } });
    series.push({ label: "high", stroke: colours.band, width: 0, points: { show: false } });
  }
  return {
    ...base(size, colours, view, onCursor),
    // Functions of the view, which is updated in place with each snapshot or fetch.
    scales: {
      x: { time: true, range: () => [view.from, view.to] },
      y: { range: () => [0, upperBound([...view.values, ...(view.high || []), view.usual], view.current ? view.current.y : null)] },
    },
    series,
    bands: withBand ? [{ series: [3, 2], fill: colours.band }] : [],
    axes: [
      axis(
        colours,
        (u, splits, axisIdx, space, incr) => {
          view.xTicks = timeTicks(splits, incr); // what is drawn, for the browser tests to read
          return view.xTicks;
        },
        { space: 56 },
      ),
      axis(colours, (u, splits) => splits.map(compact), { size: 48, space: 26 }),
    ],
  };
}

export function timeData(view) {
  const data = [view.xs, view.values];
  if (view.low && view.high) data.push(view.low, view.high);
  return data;
}

// Loss against step, with the evaluations as points. view: {xs, loss, evals: [{name, values, scale}],
// current, smoothing (0–0.99, TensorBoard's slider), logY}. With smoothing the logged losses are a
// faint line under their smoothed curve; the steps whose loss was not a number are markers.
export function lossOptions(size, colours, view, onCursor) {
  const smoothed = view.smoothing > 0;
  const series = [
    {},
    lineSeries("loss", smoothed ? colours.lossRaw : colours.loss, { spanGaps: true, width: smoothed ? 1 : 2 }),
    { ...lineSeries("smoothed", colours.loss, { spanGaps: true }), show: smoothed },
  ];
  const logY = Boolean(view.logY);
  const scales = {
    x: { time: false, range: () => [view.from, view.to] },
    // Loss is not drawn from zero: its story is in the last few tenths. The current loss stays on it.
    y: logY
      ? { distr: 3, range: (u, min, max) => logRange(min, max, view.current ? view.current.y : null) }
      : { range: (u, min, max) => lossRange(min, max, view.current ? view.current.y : null) },
  };
  const axes = [
    axis(colours, (u, splits) => stepTicks(view, splits), { space: 60 }),
    axis(colours, (u, splits) => splits.map((v) => (v == null ? "" : plain(v))), { size: 48 }),
  ];
  view.evals.forEach((ev, i) => {
    const colour = i % 2 ? colours.eval2 : colours.eval;
    series.push(pointSeries(ev.name, colour, ev.scale));
    if (ev.scale !== "y" && !scales[ev.scale]) {
      scales[ev.scale] = { auto: true };
      // Only the first eval on a scale of its own gets an axis (right side); more would crowd a phone.
      if (axes.length === 2) {
        axes.push(axis(colours, (u, splits) => splits.map(plain), { scale: ev.scale, side: 1, size: 48, grid: { show: false } }));
      }
    }
  });
  if (view.lr) {
    // The learning rate on a scale of its own, from zero: its schedule's shape is what it tells.
    series.push(lineSeries("learning rate", colours.lr, { scale: "lr", width: 1.5, spanGaps: true }));
    scales.lr = { range: (u, min, max) => [0, max > 0 ? max * 1.08 : 1] };
    if (axes.length === 2) {
      axes.push(axis(colours, (u, splits) => splits.map((v) => (v === 0 ? "0" : v.toExponential(0))), { scale: "lr", side: 1, size: 48, grid: { show: false } }));
    }
  }
  if (axes.length === 2) axes.push(gutter(colours));
  return { ...base(size, colours, view, onCursor), scales, series, axes };
}

function logRange(min, max, current) {
  let [lo, hi] = [min, max];
  if (current != null && current > 0) [lo, hi] = [lo == null ? current : Math.min(lo, current), hi == null ? current : Math.max(hi, current)];
  if (lo == null || hi == null || lo <= 0) return [0.1, 10];
  return [lo / 1.15, hi * 1.15];
}

// TensorBoard's smoothing: an exponential moving average, debiased so the curve starts on the
// first value rather than at zero. Gaps (a step with no loss) are skipped, not zeros.
export function smooth(values, weight) {
  const out = new Array(values.length).fill(null);
  let last = 0;
  let seen = 0;
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i];
    if (v == null || !Number.isFinite(v)) continue;
    last = last * weight + (1 - weight) * v;
    seen += 1;
    out[i] = weight > 0 ? last / (1 - weight ** seen) : v;
  }
  return out;
}

// An empty right axis, so the loss and rate plots, one above the other, put a step at the same x.
function gutter(colours) {
  return axis(colours, (u, splits) => splits.map(() => ""), { side: 1, size: 48, grid: { show: false }, ticks: { show: false } });
}

export function lossData(view) {
  const smoothed = view.smoothing > 0 ? smooth(view.loss, view.smoothing) : view.loss.map(() => null);
  return [view.xs, view.loss, smoothed, ...view.evals.map((ev) => ev.values), ...(view.lr ? [view.lr] : [])];
}

// A rate against step, from zero. view: {xs, values, from, to, current, unit}
export function stepRateOptions(size, colours, view, onCursor) {
  return {
    ...base(size, colours, view, onCursor),
    scales: {
      x: { time: false, range: () => [view.from, view.to] },
      y: { range: () => [0, upperBound(view.values, view.current ? view.current.y : null)] },
    },
    series: [{}, lineSeries(view.unit, colours.line)],
    axes: [
      axis(colours, (u, splits) => stepTicks(view, splits), { space: 60 }),
      axis(colours, (u, splits) => splits.map(compact), { size: 48 }),
      gutter(colours),
    ],
  };
}

export function makePlot(options, data, el) {
  return new uPlot(options, data, el);
}
