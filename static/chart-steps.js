// A step trainer's chart: loss (every logged step, or each bucket's lowest and highest; the
// evaluations as points; smoothing and log-y the reader's) and tok/h or steps/h below it, both
// against step. The figures are the server's (/api/history's steps).

import { lossData, lossOptions, stepRateOptions } from "./chart-plot.js";

const STEP_PLOT_HEIGHT = 160;

// Eval names that are losses share the loss axis; any other figure (bpb, CORE) gets a scale of its own.
function evalScale(name) {
  return /loss/i.test(name) ? "y" : `eval:${name}`;
}

// settings: {smoothing, logY}, the reader's choice (chart.js keeps it).
export function stepSpecs(steps, snapshot, settings) {
  const training = snapshot.training && (snapshot.training.stage == null || snapshot.training.stage === steps.stage)
    ? snapshot.training
    : null;
  const hasTokens = steps.tokens_per_hour.some(([, v]) => v != null);
  const ratePoints = hasTokens ? steps.tokens_per_hour : steps.steps_per_hour;
  const unit = hasTokens ? "tok/h" : "steps/h";
  // One x for loss and every eval: the union of their steps (a hole in one is not a gap in time).
  const evalNames = Object.keys(steps.evals || {});
  const xsSet = new Set(steps.loss.map(([s]) => s));
  for (const name of evalNames) for (const [s] of steps.evals[name]) xsSet.add(s);
  const lrPoints = steps.lr || [];
  if (settings.showLr) for (const [s] of lrPoints) xsSet.add(s);
  const xs = [...xsSet].sort((a, b) => a - b);
  const column = (pairs) => {
    const byStep = new Map(pairs);
    return xs.map((s) => (byStep.has(s) ? byStep.get(s) : null));
  };
  const allSteps = [...xs, ...ratePoints.map(([s]) => s)];
  // The latest step on the run's one timeline (a log whose counter restarts, as SN38's inner step at each
  // outer step, is counted on by the server), as the loss and rate points are.
  // A log of dicts without a step number: its loss points are at their record index, so is the latest.
  const currentStep = training
    ? (training.chart_x != null ? training.chart_x : training.step != null ? training.step : training.logged_records)
    : null;
  let from = allSteps.length ? Math.min(...allSteps) : 0;
  let to = Math.max(allSteps.length ? Math.max(...allSteps) : 1, currentStep == null ? 0 : currentStep);
  // A run of one step (it died at its first bar) is drawn around that step: an empty range has no axis.
  if (to <= from) [from, to] = [Math.max(0, from - 1), Math.max(0, from - 1) + 2];
  const rateNow = training ? (hasTokens ? training.tokens_per_hour : training.steps_per_hour) : null;
  // A collaborator's averaging rounds (SN38, hivemind), each at the step it began: a marker by outcome,
  // the group's size a line along the plot's foot; hovering one reads the server's words for it.
  const rounds = ((training && training.swarm && training.swarm.rounds) || [])
    .filter((r) => r.step != null && r.step >= from - 1)
    .map((r) => ({ at: r.step, outcome: r.outcome, peers: r.peers, text: r.text || r.outcome }));
  const loss = column(steps.loss);
  // Log-y needs every loss above zero (a loss can be negative: a reward, a log-likelihood).
  const logY = settings.logY && !loss.some((v) => v != null && v <= 0);
  const lossView = {
    kind: "loss",
    xs,
    loss,
    bucketSteps: steps.loss_bucket_steps || 1,
    lr: settings.showLr && lrPoints.length ? column(lrPoints) : null,
    smoothing: settings.smoothing,
    logY,
    evals: evalNames.map((name) => ({ name, values: column(steps.evals[name]), scale: evalScale(name) })),
    from,
    to,
    // Where the loss was not a number: a marker each (the first is where the run diverged).
    events: (steps.not_finite || []).map((step) => ({ at: step, kind: "not_finite", text: `step ${step}: loss not a number` }))
      // Where the loss spiked above its recent level (the latest spikes, as the snapshot counts them).
      .concat(((training && training.loss_spike_steps) || []).map((step) => ({ at: step, kind: "spike", text: `step ${step}: loss spike` })))
      .concat(rounds.map((r) => ({ at: r.at, kind: "round", text: r.text }))),
    rounds,
    current: training && training.loss != null && currentStep != null ? { x: currentStep, y: training.loss } : null,
  };
  const rateView = {
    kind: "steprate",
    xs: ratePoints.map(([s]) => s),
    values: ratePoints.map(([, v]) => v),
    from,
    to,
    unit,
    events: [],
    current: rateNow != null && currentStep != null ? { x: currentStep, y: rateNow } : null,
  };
  const evalShape = lossView.evals.map((ev) => ev.scale).join(",");
  const countedOn = Boolean(training && training.chart_x != null);
  const lossShape = `loss:${evalShape}:${logY}:${settings.smoothing > 0}:${Boolean(lossView.lr)}:${rounds.length > 0}:${countedOn}`;
  const lossCaption = (steps.loss_sampled
    ? "loss (sampled across the run)"
    : lossView.bucketSteps > 1
      ? `loss (each ${lossView.bucketSteps.toLocaleString()} steps' lowest and highest)`
      : "loss")
    // The x is the run's step where the log's own count restarts (SN38's inner step): say so, the headline's differs.
    + (countedOn ? " · steps counted on where the log's count restarts" : "");
  const lossSpec = { view: lossView, height: settings.lossHeight, shape: lossShape, caption: lossCaption, options: lossOptions, data: lossData };
  // No rate points (a run read from memory keeps only its losses): the loss plot alone.
  if (!ratePoints.some(([, v]) => v != null)) return [lossSpec];
  const rateSpec = { view: rateView, height: STEP_PLOT_HEIGHT, shape: "rate", caption: unit, options: stepRateOptions, data: (v) => [v.xs, v.values] };
  // No loss printed (a run that died at its first bar): the rate plot alone, not an empty loss plot.
  if (!hasLoss(steps)) return [rateSpec];
  return [lossSpec, rateSpec];
}

// Whether the history holds a loss or an evaluation to plot.
export function hasLoss(steps) {
  return steps.loss.length > 0 || Object.values(steps.evals || {}).some((points) => points.length > 0);
}

// A plot's name, and for the loss plot a key to its evaluation points (which axis they read on).
export function caption(spec, colours) {
  const el = document.createElement("figcaption");
  el.textContent = spec.caption;
  // As lossOptions draws them: the first eval on a scale of its own has the right axis.
  const evals = spec.view.evals || [];
  const rightAxis = (evals.find((ev) => ev.scale !== "y") || {}).scale;
  evals.forEach((ev, i) => {
    const key = document.createElement("span");
    key.className = "chart-key";
    key.style.color = i % 2 ? colours.eval2 : colours.eval; // CSSOM, which the CSP allows
    key.textContent = "●";
    let where = " (loss axis)";
    if (ev.scale === rightAxis) where = " (right axis)";
    else if (ev.scale !== "y") where = " (hover for values)";
    const name = document.createElement("span");
    name.textContent = ` ${ev.name}${where}`;
    el.append(" · ", key, name);
  });
  if ((spec.view.rounds || []).length) {
    // As markersPlugin draws them: a round's marker by outcome, its group's size a line.
    for (const [colour, mark, words] of [[colours.roundOk, "●", "round ok"], [colours.roundFailed, "▲", "round failed"],
      [colours.group, "—", "group size (peers)"]]) {
      const key = document.createElement("span");
      key.className = "chart-key";
      key.style.color = colour;
      key.textContent = mark;
      el.append(" · ", key, ` ${words}`);
    }
  }
  if (spec.view.lr) {
    const key = document.createElement("span");
    key.className = "chart-key";
    key.style.color = colours.lr;
    key.textContent = "—";
    const name = document.createElement("span");
    name.textContent = ` learning rate (${rightAxis ? "hover for values" : "right axis"})`;
    el.append(" · ", key, name);
  }
  return el;
}
