"""The hub's trainer runs: an agent reports its run's loss curve (``POST /hub/runs``, its report key),
and a page lists (``GET /api/compare/fleet-runs``) and overlays (``GET /api/compare/fleet``) them.

Routes on the hub's blueprint (the dashboard token off loopback for ``/api/``, as the fleet's);
the work is :class:`app.hub.runs.MachineRuns`'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Response, current_app, request

from ..hub.runs import MAX_PART_BYTES, RUNS_PATH, MachineRuns, ReportedRun, run_key, split_key
from .hub import _intake, _json, bp, hub_state

if TYPE_CHECKING:
    from ..compare.view import RunFigures

RUNS_KEY = "tokwatch.hub.runs"


def machine_runs() -> MachineRuns:
    """The app's MachineRuns, made on first use over the hub's file."""
    found: MachineRuns | None = current_app.extensions.get(RUNS_KEY)
    if found is None:
        hub = hub_state().hub
        found = current_app.extensions.setdefault(RUNS_KEY, MachineRuns(hub.store, hub.clock))
    return found


@bp.post(RUNS_PATH)
def take_run() -> Response:
    """Keep one trainer run's loss curve a machine reported (its key in ``Authorization: Bearer``)."""
    return _intake(machine_runs().take, MAX_PART_BYTES, "run")


@bp.get("/api/compare/fleet-runs")
def fleet_runs() -> Response:
    """The runs the fleet's machines reported, newest first, each named ``machine: run``."""
    from ..compare.catalogue import MAX_RUNS

    return _json({"runs": machine_runs().listing(), "max_runs": MAX_RUNS})


def figures(machine: str, run: ReportedRun) -> RunFigures:
    """A reported run as :mod:`app.compare.view` draws any run."""
    from ..compare.view import RunFigures

    return RunFigures(
        run_id=run_key(machine, run.run_id), name=f"{machine}: {run.name}", origin="machine", stage=run.stage,
        loss=list(run.loss), loss_bucket_steps=run.loss_bucket_steps,
        evals={name: [(s, v) for s, v in points] for name, points in run.evals.items()},
        final_loss=run.final_loss, best_loss=run.best_loss, started_at=run.started_at,
        first_step=run.first_step, last_step=run.last_step,
    )


@bp.get("/api/compare/fleet")
def fleet_compare() -> Response:
    """Reported runs (``run=m:MACHINE:RUN``, repeated, up to six) on one step axis, as ``/api/compare``."""
    from ..compare.catalogue import MAX_RUNS
    from ..compare.view import comparison

    ids = list(dict.fromkeys(request.args.getlist("run")))
    if not 1 <= len(ids) <= MAX_RUNS:
        return _json({"error": f"name one to {MAX_RUNS} runs: run=m:MACHINE:RUN, repeated"}, 400)
    found = []
    for key in ids:
        parts = split_key(key)
        run = None if parts is None else machine_runs().run(*parts)
        if parts is None or run is None:
            return _json({"error": f"{key}: no such run reported to this hub"}, 404)
        found.append(figures(parts[0], run))
    return _json(comparison(found, "step"))


@bp.get(RUNS_PATH)
def read_runs() -> Response:
    """An agent's page, through its agent: the fleet's runs (``GET /hub/runs``), or one of them as it
    was reported (``?run=m:MACHINE:RUN``); the report key of any enrolled machine, as for sending."""
    runs = machine_runs()
    status, answer = runs.check_key(request.headers.get("Authorization"))
    if status != 200:
        response = _json(answer, status)
        if status == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="tokwatch hub"'
        return response
    wanted = request.args.get("run")
    if wanted is None:
        return _json({"runs": runs.listing()})
    parts = split_key(wanted)
    run = None if parts is None else runs.run(*parts)
    if parts is None or run is None:
        return _json({"error": f"{wanted}: no such run reported to this hub"}, 404)
    return _json({"machine": parts[0], "run": run.as_json()})
