"""The test tiers, given to each test by what it uses, so a new test lands in its tier unmarked.

- ``browser``: drives a real Chromium (the ``browser`` fixture, or Playwright itself).
- ``socket``: starts a real server or a process: it reaches, through its fixtures and the test
  and bench helpers it calls, a listening socket, a subprocess, the dashboard's or the hub's servers, or
  the HTTP receiver. While ``make check`` runs (``-m "not socket …"``), a test that binds a socket
  or starts a process anyway is named at the end of the run, so a starter missed here is seen.
- ``slow``: the few tests left that do more than a second or two of real work; named below,
  measured (``pytest --durations``), since no fixture says so.

``make check`` runs what none of these mark: the pure core and the in-process integration (the
tailer on real files, the monitor, the store, the app through Flask's test client).
"""

from __future__ import annotations

import inspect
import socket
import subprocess
import sys
import types
from collections.abc import Iterator
from typing import Any

import hypothesis
import pytest

# What a test reaches to start a server, a client of one, or a process.
SOCKET_MODULES = {socket.__name__, subprocess.__name__}
SOCKET_STARTERS = {
    "app.serve.process.Dashboard",
    "app.serve.process.open_fleet",
    "app.serve.command.serve",
    "app.serve.servers.listen",
    "app.serve.wsserver.WebsocketServer",
    "http.server.HTTPServer",
    "http.server.ThreadingHTTPServer",
    "waitress.create_server",
    "simple_websocket.Client",
    "simple_websocket.ws.Client",
    "subprocess.Popen",
    "subprocess.run",
    "subprocess.check_output",
    "subprocess.check_call",
    "subprocess.call",
    "socket.socket",
    "socket.create_server",
    "socket.create_connection",
}
BROWSER_STARTERS = {"playwright.sync_api.sync_playwright", "playwright.sync_api._context_manager.sync_playwright"}

# Measured (``pytest --durations``), each several seconds of work, or of waiting on a real clock,
# with no server or process of its own; a prefix of a node id names a test (every
# parametrization) or a whole file.
SLOW = (
    "tests/store/test_faults_store.py",
    "tests/alerts/test_service.py::test_the_watching_thread_reads_the_source_and_survives_a_bad_snapshot",
    "tests/hub/test_faults_agent.py::test_the_spool_is_bounded_in_bytes",
    "tests/hub/test_ticker.py::test_the_ticker_sleeps_until_a_report_or_a_machine_going_offline",
    "tests/ingest/test_tailer.py::test_a_line_being_written_waits_for_the_writer_to_go_quiet",
    "tests/ingest/test_tailer.py::test_watched_folder_removed_and_recreated",
    "tests/ingest/test_wake.py::test_a_quiet_log_wakes_the_tailer_only_for_its_heartbeat",
    "tests/hub/test_machine_history.py::test_a_week_goes_in_bounded_batches_each_paced_by_the_hubs_answer",
    "tests/ingest/test_backwards.py::test_a_cold_start_on_10_gib_reads_what_the_tail_alone_does",
    "tests/live/test_faults_folder.py::test_listing_a_large_folder_is_rate_limited",
    "tests/live/test_faults_folder.py::test_the_apps_own_log_written_later_does_not_take_over",
    "tests/live/test_monitor.py::test_at_a_time_far_back_in_a_large_log_still_finds_it",
    "tests/live/test_monitor_undated.py::test_a_crash_at_the_end_of_a_long_log_is_seen_from_the_tail",
    "tests/live/test_monitor_undated.py::test_a_dated_step_log_reads_back_its_span_by_time_and_no_further",
    "tests/live/test_monitor_undated.py::test_a_glance_at_the_newest_lines_comes_before_the_first_view",
    "tests/live/test_monitor_undated.py::test_the_first_view_shows_the_latest_step_and_rate_from_the_tail_alone",
    "tests/live/test_monitor_undated.py::test_the_tokens_per_step_printed_only_at_the_top_are_still_known",
    # The import's child process (in_child=True) is started by the app, out of the helpers' sight.
    "tests/record/test_backfill.py::test_a_step_trainer_log_is_imported_each_step_once_across_restarts",
    "tests/record/test_backfill.py::test_an_import_that_fills_the_history_stops_and_is_done_again_once_there_is_room",
    "tests/record/test_backfill.py::test_in_the_train_at_home_folder_only_the_miners_cli_logs_are_imported",
    "tests/record/test_recorder.py::test_a_step_trainer_keeps_its_steps_loss_and_rate",
    "tests/record/test_history_body.py::test_the_losses_are_each_buckets_lowest_and_highest",
    "tests/record/test_preview.py::test_the_whole_run_chart_is_the_sample_while_importing_then_the_history_s",
    "tests/record/test_recorder.py::test_a_weeks_history_goes_gzipped_and_a_reload_of_it_unchanged_is_a_304",
    "tests/record/test_replay_runs.py::test_a_log_imported_in_runs_stores_what_one_event_at_a_time_stores",
    "tests/record/test_replay_runs.py::test_a_long_every_step_run_imported_in_runs_stores_what_one_event_at_a_time_stores",
    "tests/web/test_broadcast.py::test_a_quiet_client_thread_sleeps_until_its_keepalive",
    # Measured in CPU seconds (a second or more each, most of make check's time): the bulk readers' and the
    # import's equivalence with one line or one event at a time, over long composed logs. The real logs', the
    # shorter cuts' and each row's own usual lines stay in check.
    "tests/live/test_backlog_slices.py::test_the_backlog_in_slices_reads_as_in_one",
    "tests/record/test_replay_rows.py::test_a_long_run_of_a_row_s_lines_imported_in_runs_stores_what_one_event_at_a_time_stores",
    "tests/record/test_replay_rows.py::test_a_row_s_log_imported_in_runs_stores_what_one_event_at_a_time_stores",
    "tests/record/test_replay_rows.py::test_a_bulk_read_line_is_the_step_the_line_reads_as_alone",
    "tests/record/test_replay_evals.py::test_evaluation_lines_anywhere_store_what_one_event_at_a_time_stores",
    "tests/record/test_replay_evals.py::test_hours_of_steps_with_an_evaluation_every_125_store_each_evaluation",
    "tests/record/test_replay_kept.py::test_the_import_stores_what_applying_every_event_stores[composed",
    "tests/record/test_stored_sample.py::test_every_boundarys_stored_figures_are_the_snapshots[composed",
    "tests/record/test_history_body.py",
    "tests/stats/test_steps_spikes.py::test_healthy_real_logs_flag_no_spike",
    "tests/ingest/formats/test_iota_differential.py::test_real_shaped_logs_with_odd_lines_parse_the_same[25",
    "tests/ingest/formats/test_iota_differential.py::test_real_shaped_logs_with_odd_lines_parse_the_same[5000-",
    "tests/ingest/formats/test_iota_differential.py::test_real_shaped_logs_with_odd_lines_parse_the_same[1073741824-",
)
# A server or a Python process the app starts out of the helpers' sight (an import's child, Apprise's or the
# tailer's probe run as a child, a server the command binds): the socket tier, named here.
STARTS_UNSEEN = (
    "tests/alerts/test_delivery.py::test_a_url_apprise_cannot_read_is_a_problem_not_a_crash",
    "tests/hub/test_machine_compare.py::test_a_machine_named_compare_keeps_its_own_json",
    "tests/ingest/test_wake.py::test_a_tailer_on_inotify_never_loads_watchfiles",
    "tests/record/test_backfill.py::test_an_import_child_killed_mid_batch_is_said_in_words_and_its_file_read_again",
    "tests/record/test_import_after_read_in.py::test_the_import_starts_only_once_the_live_view_has_read_the_log_in",
    "tests/record/test_revision.py::test_the_import_moves_the_revision_and_wakes_the_feed_once_the_whole_run_is_stored",
    "tests/stats/test_steps_position_words.py::test_words_of_completion_short_of_the_count_are_no_end_reached",
    "tests/web/test_serve.py::test_a_start_that_fails_half_way_still_stops_at_once",
)
# While check runs, a property test (hypothesis) tries at most this many examples; make test, all.
CHECK_EXAMPLES = 25


def _name(obj: Any) -> str:
    return f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', '')}"


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _functions(obj: Any) -> Iterator[Any]:
    """The functions an object runs: itself, or a class's methods and properties."""
    if inspect.isclass(obj):
        for value in vars(obj).values():
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            if isinstance(value, property):
                yield from (f for f in (value.fget, value.fset) if f is not None)
            elif inspect.isfunction(value):
                yield value
    elif inspect.isfunction(obj):
        yield obj


def reaches(roots: list[Any]) -> set[str]:
    """The tiers the functions reach, following the test helpers (``tests.*``) they call."""
    found: set[str] = set()
    seen: set[int] = set()
    todo = [f for root in roots for f in _functions(root)]
    while todo:
        function = todo.pop()
        if id(function) in seen:
            continue
        seen.add(id(function))
        scope = function.__globals__
        for code in _codes(function.__code__):
            for name in code.co_names:
                if name not in scope:
                    continue
                target = scope[name]
                if isinstance(target, types.ModuleType):
                    if target.__name__ in SOCKET_MODULES:
                        found.add("socket")
                elif _name(target) in SOCKET_STARTERS:
                    found.add("socket")
                elif _name(target) in BROWSER_STARTERS:
                    found.add("browser")
                elif getattr(target, "__module__", "").startswith(("tests", "bench")):
                    todo.extend(_functions(target))
    return found


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    check = _socket_deselected(config)
    for item in items:
        if not isinstance(item, pytest.Function):
            continue
        fixtures = item._fixtureinfo.name2fixturedefs
        roots: list[Any] = [item.function]
        roots += [definition.func for definitions in fixtures.values() for definition in definitions]
        tiers = reaches(roots)
        if "browser" in item.fixturenames:
            tiers.add("browser")
        if item.nodeid.startswith(SLOW):
            tiers.add("slow")
        if item.nodeid.startswith(STARTS_UNSEEN):
            tiers.add("socket")
        for tier in sorted(tiers - {mark.name for mark in item.iter_markers()}):
            item.add_marker(tier)
        if check:
            _fewer_examples(item.function)


def _fewer_examples(function: Any) -> None:
    """Cap a property test's examples (hypothesis reads its settings from the test when it runs)."""
    given = getattr(function, "_hypothesis_internal_use_settings", None)
    if given is not None and given.max_examples > CHECK_EXAMPLES:
        function._hypothesis_internal_use_settings = hypothesis.settings(given, max_examples=CHECK_EXAMPLES)


def _socket_deselected(config: pytest.Config) -> bool:
    return "not socket" in (config.getoption("markexpr") or "")


_running: list[str] = []
_started: dict[str, str] = {}  # test → the first server or process it started unmarked


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _running and event in ("socket.bind", "subprocess.Popen") and _running[0] not in _started:
        _started[_running[0]] = f"{event} {args[1] if event == 'socket.bind' else args[0]!r}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """While check runs, note a test outside the socket tier that starts a server or a process."""
    watch = _socket_deselected(item.config) and item.get_closest_marker("socket") is None
    if watch:
        _running.append(item.nodeid)
    try:
        return (yield)
    finally:
        _running.clear()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _started:
        terminalreporter.write_sep("-", "started a server or a process outside the socket tier")
        for nodeid, what in _started.items():
            terminalreporter.write_line(f"{nodeid}: {what}")
        terminalreporter.write_line("(name the starter in tests/tiers.py, or mark the test socket, if it is slow)")


sys.addaudithook(_audit)
