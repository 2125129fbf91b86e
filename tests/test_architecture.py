"""The packages keep the data flowing one way: each module's imports, read from its source."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[1] / "app"


def module_name(path: Path) -> str:
    """``app.stats.iota.tracker`` for app/stats/iota/tracker.py; a package is named by its folder."""
    parts = list(path.relative_to(APP.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A module's syntax tree, read once for all the tests here."""
    return ast.parse(path.read_text(encoding="utf-8"))


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth (lazy imports inside functions too), relative ones
    resolved to their absolute names."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                assert node.module is not None
                module = node.module
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def modules(package: str) -> list[Path]:
    return sorted((APP / package).rglob("*.py"))


def reaches(found: set[str], prefix: str) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for name in found)


@pytest.mark.parametrize("path", modules("stats"), ids=lambda p: str(p.relative_to(APP)))
def test_stats_is_pure(path: Path) -> None:
    found = imports(path)
    outside_stats = ("app.ingest", "app.web", "app.live.monitor", "app.config", "app.store", "app.alerts")
    for outside in (*outside_stats, "flask", "watchfiles", "threading"):
        assert not reaches(found, outside), f"{path.name} imports {outside}"


@pytest.mark.parametrize("path", modules("stats/steps"), ids=lambda p: p.name)
def test_the_step_tracker_never_imports_the_miners(path: Path) -> None:
    assert not reaches(imports(path), "app.stats.iota.tracker") and not reaches(imports(path), "app.stats.unknown")


def test_the_miner_tracker_never_imports_the_step_trackers() -> None:
    found = imports(APP / "stats" / "iota" / "tracker.py")
    assert not reaches(found, "app.stats.steps") and not reaches(found, "app.stats.unknown")


@pytest.mark.parametrize("path", modules("ingest/formats"), ids=lambda p: p.name)
def test_parsers_read_text_and_speak_events_only(path: Path) -> None:
    found = {name for name in imports(path) if name.startswith("app.")}
    allowed = ("app.ingest.formats", "app.stats.events", "app.stats.kinds")  # events, and the registry's kinds
    assert all(any(name == a or name.startswith(a + ".") for a in allowed) for name in found), found
    # No I/O, no logging, no clock (time.mktime, a zone conversion, is allowed: see base.py).
    assert not {"os", "io", "pathlib", "threading", "logging"} & imports(path)
    source = path.read_text(encoding="utf-8")
    assert "time.time(" not in source and "time.monotonic(" not in source


@pytest.mark.parametrize("package", ["ingest", "stats", "store", "alerts"])
def test_nothing_below_the_web_knows_the_web(package: str) -> None:
    for path in modules(package):
        assert not reaches(imports(path), "app.web"), path


# --- the whole house: no circle, the config on the ground floor, the process under the CLI only ------


def app_modules() -> dict[str, Path]:
    """Every module of app/ by its dotted name."""
    return {module_name(path): path for path in sorted(APP.rglob("*.py"))}


def module_imports(path: Path, known: set[str]) -> set[str]:
    """The modules of app/ that ``path`` imports, at any depth, relative imports resolved.

    ``from . import hub`` is an arrow to the module ``app.web.hub``, not to its package; ``from
    ..snapshot import Snapshot`` one to ``app.snapshot``.
    """
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                assert node.module is not None
                module = node.module
            for alias in node.names:
                submodule = f"{module}.{alias.name}"
                if submodule in known:
                    found.add(submodule)
                elif module in known:
                    found.add(module)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module → the modules of app/ it imports (itself left out)."""
    paths = app_modules()
    known = set(paths)
    return {name: module_imports(path, known) - {name} for name, path in paths.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_anywhere_in_app() -> None:
    assert cycles(import_graph()) == []


def test_the_config_imports_nothing_else_of_app() -> None:
    for name, targets in import_graph().items():
        if reaches({name}, "app.config"):
            outside = {t for t in targets if not reaches({t}, "app.config")}
            assert not outside, f"{name} imports {sorted(outside)}"


def test_only_the_cli_imports_the_process() -> None:
    for name, targets in import_graph().items():
        if reaches({name}, "app.serve") or reaches({name}, "app.cli"):
            continue
        assert not any(reaches({t}, "app.serve") for t in targets), f"{name} imports the process package"


# A step run's state is decided once, by the verdict (app/stats/steps/verdict.py), before any word:
# the text writes what it says, and nothing patches a line once written.
STEP_STATES = {"working", "measuring", "training", "evaluating", "stalled", "done", "diverged", "crashed", "stopped",
               "broken"}


def test_the_step_progress_accumulates_and_writes_no_words() -> None:
    found = imports(APP / "stats" / "steps" / "progress.py")
    for words in ("app.stats.steps.text", "app.text", "app.stats.steps.verdict", "app.stats.steps.report"):
        assert not reaches(found, words), f"progress.py imports {words}"


def test_the_step_text_writes_only_from_a_verdict() -> None:
    tree = ast.parse((APP / "stats" / "steps" / "text.py").read_text(encoding="utf-8"))
    writers = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)
               and node.name in ("status", "details", "early_status", "early_details")}
    assert set(writers) == {"status", "details", "early_status", "early_details"}
    for name, node in writers.items():
        first = node.args.args[0].annotation
        assert isinstance(first, ast.Name) and first.id in ("Verdict", "EarlyVerdict"), f"text.{name} takes no verdict"


@pytest.mark.parametrize("path", modules("stats/steps"), ids=lambda p: p.name)
def test_no_step_line_is_filtered_by_its_words_or_put_at_an_index(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.comprehension):
            for condition in node.ifs:
                calls = [c for c in ast.walk(condition) if isinstance(c, ast.Call)]
                assert not any(isinstance(c.func, ast.Attribute) and c.func.attr == "startswith" for c in calls), \
                    f"{path.name}:{node.target.lineno} filters lines by their words"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            assert node.func.attr != "insert", f"{path.name}:{node.lineno} inserts a line at an index"
        if isinstance(node, ast.Assign):
            assert not any(isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant)
                           and isinstance(t.slice.value, int) for t in node.targets), \
                f"{path.name}:{node.lineno} rewrites a line by its index"


@pytest.mark.parametrize("path", [p for p in modules("stats/steps") if p.name != "verdict.py"], ids=lambda p: p.name)
def test_only_the_verdict_decides_a_step_state(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Return) and node.value is not None:
            first = node.value.elts[0] if isinstance(node.value, ast.Tuple) and node.value.elts else node.value
            assert not (isinstance(first, ast.Constant) and first.value in STEP_STATES), \
                f"{path.name}:{node.lineno} decides the state {first.value!r}"


# --- the formats: one row each, one line pipeline ----------------------------------------------------

# The formats package's shared modules: the pipeline, the registry and what both read; the crash
# watch every step parser is wrapped in, and the ending words and closing summaries it reads (endings.py, summaries.py); the miner's
# parser, which reads records, not step lines
# (iota.py: a record's continuation lines are its own grammar, with no wraps, bars or glued steps); the start
# banner's words (banner.py) and the start sentences it reads (start_sentences.py), which the sniffer reads too.
# The miner's side also has the app's shell log (iota_shell.py: read beside the worker's log, no format of
# its own) and the drift guard's line shapes (drift.py), which no step trainer reads.
SHARED_FORMAT_MODULES = {"__init__", "base", "fields", "prefix", "shapes", "registry", "pipeline", "detect", "crash", "paste", "banner",
                         "endings", "summaries", "grammar", "classes", "hf_state", "iota", "iota_messages", "iota_shell", "drift",
                         "bar_descriptions", "spread_dicts", "native_crash", "start_sentences"}
# The generic reader's parts: a family of lines it reads, kept in a module of its own (no row, no classify: the generic
# reader hands them its lines and reads what they give back as any other record).
GENERIC_PARTS = {"fairseq_lua", "coco", "vertical_records", "keras_bars", "scalar_prints", "tagged_scalars", "yolo_rows",
                 "interval_times", "drawn_bars", "series", "step_source", "tree_summaries", "run_args", "bracketed_epochs",
                 "prose_figures", "run_clock", "box_rows",
                 "lost_losses", "loss_groups", "split_records", "run_time", "results_blocks", "epoch_time",
                 "marked_scores", "legends", "metric_lines", "search_trials", "throughput_timer", "lone_figures",
                 "ignite_engine", "catboost_iterations", "boosting_rounds",
                 "episodes", "tf_estimator", "step_evals", "loss_tables",
                 "side_programs", "record_figures"}


def format_modules() -> list[Path]:
    return [path for path in modules("ingest/formats") if path.stem not in SHARED_FORMAT_MODULES | GENERIC_PARTS]


def defined_functions(path: Path) -> set[str]:
    return {node.name for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


@pytest.mark.parametrize("path", format_modules(), ids=lambda p: p.name)
def test_no_parser_module_defines_the_feed_loop(path: Path) -> None:
    """A step parser only classifies: the loop (feed, the bulk feed, the dating of its records) is pipeline.py's."""
    defined = defined_functions(path)
    assert not defined & {"feed", "feed_runs", "_classify_dated", "_end"}, f"{path.name} defines {defined & {'feed', 'feed_runs'}}"
    assert "classify" in defined, f"{path.name} has no classify"


def test_every_step_format_runs_in_the_pipeline() -> None:
    from app.ingest.formats import FORMATS
    from app.ingest.formats.pipeline import StepLines
    from app.stats.kinds import STEPS

    for spec in FORMATS:
        if spec.kind == STEPS:
            assert isinstance(spec.parser(spec), StepLines), spec.name


def test_the_sniffer_imports_no_parser_module() -> None:
    """detect.py reads the formats' rows (registry.py), never a parser's insides."""
    found = {name for name in imports(APP / "ingest" / "formats" / "detect.py") if name.startswith("app.ingest.formats.")}
    parsers = {f"app.ingest.formats.{path.stem}" for path in format_modules()} | {
        "app.ingest.formats.hf_state", "app.ingest.formats.iota", "app.ingest.formats.iota_messages",
        "app.ingest.formats.grammar"} | {f"app.ingest.formats.{part}" for part in GENERIC_PARTS}
    assert {name for name in found if any(name == p or name.startswith(p + ".") for p in parsers)} == set()


def test_the_generic_readers_parts_are_its_own() -> None:
    """Only generic.py reads its parts' modules, and a part reads no parser and no other part."""
    formats = APP / "ingest" / "formats"
    assert all((formats / f"{part}.py").exists() for part in GENERIC_PARTS)
    parts = {f"app.ingest.formats.{part}" for part in GENERIC_PARTS}
    parsers = {f"app.ingest.formats.{path.stem}" for path in format_modules()}
    for path in modules("ingest/formats"):
        found = {name.rpartition(".")[0] if name.rpartition(".")[0] in parts | parsers else name for name in imports(path)}
        if path.stem != "generic":
            assert not found & parts, f"{path.name} imports {found & parts}"
        if path.stem in GENERIC_PARTS:
            assert not found & parsers, f"{path.name} imports {found & parsers}"
