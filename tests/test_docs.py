"""The docs say what the code does: every snapshot field, alert rule, format, metric and option
appears in its page, `--help` and the options tables agree, and links and paths lead somewhere.

Each test names the page to fix and, where a table is generated, the command that rewrites it.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import json
import re
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, from PyPI
    import tomli as tomllib

from app.alerts.service import AlertService
from app.cli.main import main
from app.config.alerts import DEFAULT_RULES, AlertSettings
from app.ingest.folder import MINER_FOLDER_NAME, MINER_LOG_SUFFIX
from app.ingest.formats import PARSERS
from app.snapshot import Snapshot
from tests import docs_options

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
MARKDOWN = [ROOT / "README.md", *PAGES]
DATA = ROOT / "tests" / "data"


def page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", flags=re.DOTALL | re.MULTILINE)


def without_fences(text: str) -> str:
    """The text outside fenced blocks (a `# comment` in a shell block is no heading)."""
    return FENCE.sub("", text)


def code_spans(text: str) -> list[str]:
    """The text of every `code span` and fenced block: where names are written as names."""
    return FENCE.findall(text) + re.findall(r"`([^`\n]+)`", without_fences(text))


def names_in(text: str) -> set[str]:
    """Every identifier-like word inside the code spans of ``text``."""
    return {word for span in code_spans(text) for word in re.findall(r"[A-Za-z_][A-Za-z0-9_.-]*", span)}


def table_rows(text: str, first_column: str) -> dict[str, str]:
    """The rows of the tables whose first column is headed ``first_column``, keyed by the code spans
    of their first cell (`key` → the whole row)."""
    rows: dict[str, str] = {}
    header: str | None = None
    for line in without_fences(text).splitlines():
        if not line.startswith("|"):
            header = None
        elif header is None:
            header = line.split("|")[1].strip()
        elif header == first_column:
            for key in re.findall(r"`([^`]+)`", line.split("|")[1]):
                rows.setdefault(key, line)
    return rows


# --- the snapshot contract -----------------------------------------------------------------


def _views(hint: Any) -> Iterator[type]:
    """The dataclasses a field's type names (``QueueView | None``, ``tuple[EventView, ...]``)."""
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        yield hint
    for arg in typing.get_args(hint):
        yield from _views(arg)


def snapshot_fields(cls: type = Snapshot, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    """(the path of the view a field sits in, the field's name), recursively."""
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        yield path, f.name
        for view in _views(hints[f.name]):
            yield from snapshot_fields(view, (*path, f.name))


def _row_for(rows: dict[str, str], path: tuple[str, ...]) -> str | None:
    """The contract row that documents this view: `source.following` before `source`."""
    for cut in range(len(path), 0, -1):
        row = rows.get(".".join(path[:cut]))
        if row is not None:
            return row
    return None


def test_every_snapshot_field_is_in_the_contract() -> None:
    rows = table_rows(page("snapshot.md"), "key")
    missing = []
    for path, name in snapshot_fields():
        if not path:
            if name not in rows:
                missing.append(name)
            continue
        row = _row_for(rows, path)
        if row is None or name not in names_in(row):
            missing.append(".".join((*path, name)))
    assert not missing, (
        f"docs/snapshot.md does not document these Snapshot fields (a row per key, nested ones in "
        f"their parent's row): {missing}"
    )


def _once_json(log: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["--once", "--json", "--at", "end", "--no-history", "--log", str(log)]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


@pytest.mark.parametrize("log", ["iota-sample.log", "sample-nanochat.log", "sample-hf-trainer.log", "sample-sn38.log"])
def test_every_key_the_json_carries_is_in_the_contract(log: str, capsys: pytest.CaptureFixture[str]) -> None:
    """What `--once --json` really prints, `level` (derived) and the `training` object's keys too."""
    data = _once_json(DATA / log, capsys)
    rows = table_rows(page("snapshot.md"), "key")
    missing = sorted(set(data) - set(rows))
    training = data.get("training") or {}
    in_row = names_in(rows.get("training", ""))
    missing += [f"training.{key}" for key in training if key not in in_row]
    assert not missing, f"docs/snapshot.md does not document what {log} gives: {missing}"


def test_the_alerts_section_is_in_the_contract() -> None:
    section = AlertService(AlertSettings(), name="rig-7").status()
    row = table_rows(page("snapshot.md"), "key").get("alerts", "")
    missing = [key for key in section if key not in names_in(row)]
    assert not missing, f"docs/snapshot.md's alerts row does not name: {missing}"


# --- rules, formats, metrics ---------------------------------------------------------------


def test_every_alert_rule_is_in_the_rules_table() -> None:
    rows = table_rows(page("alerts.md"), "rule")
    missing = [name for name in DEFAULT_RULES if name not in rows]
    assert not missing, f"docs/alerts.md's rules table has no row for: {missing}"
    stale = [name for name in rows if name not in DEFAULT_RULES]
    assert not stale, f"docs/alerts.md names rules the code does not have: {stale}"


def test_every_format_is_in_the_formats_table() -> None:
    rows = table_rows(page("formats.md"), "format")
    missing = [name for name in PARSERS if name not in rows]
    assert not missing, f"docs/formats.md's table has no row for: {missing}"
    stale = [name for name in rows if name not in PARSERS]
    assert not stale, f"docs/formats.md's table names formats the code does not read: {stale}"


def test_every_format_row_has_signatures_and_a_real_log_excerpt() -> None:
    """A format is a row (registry.py): the sniffer knows it by its signatures (the fallback reader has
    none: it takes what no row claims), and a real log of it, named for the sniffer, is in tests/data/real
    (its source cited in its first lines) -- or, for the IOTA miner, whose logs are not public, in the
    seed logs of tests/data."""
    from app.ingest.formats import FORMATS, detect

    unsigned = [spec.name for spec in FORMATS if not spec.signatures and not spec.fallback]
    assert not unsigned, f"format rows without signatures: {unsigned}"
    logs = [path for path in (ROOT / "tests" / "data" / "real").iterdir() if path.is_file() and path.suffix != ".md"]
    logs += sorted((ROOT / "tests" / "data").glob("*.log"))
    named = {detect(path.read_text(encoding="utf-8", errors="replace").splitlines()) for path in logs}
    missing = [spec.name for spec in FORMATS if spec.name not in named]
    assert not missing, f"format rows with no real log the sniffer names as theirs: {missing}"


def metric_names() -> set[str]:
    """Every metric family tokwatch registers, as Prometheus exposes it (counters end in _total)."""
    names: set[str] = set()
    for source in ("app/prometheus.py", "app/hub/service.py"):
        for node in ast.walk(ast.parse((ROOT / source).read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            first = node.args[0]
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)
                    and first.value.startswith("tokwatch_")):
                continue
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            counter = "counter" in called.lower()
            names.add(first.value + ("_total" if counter else ""))
    return names


def test_every_metric_is_documented() -> None:
    registered = metric_names()
    assert len(registered) > 20, "the metric names were not found in app/prometheus.py: fix metric_names()"
    rows = table_rows(page("metrics.md"), "metric")
    documented = {name.split("{")[0] for name in rows if name.startswith("tokwatch_")}
    missing = sorted(registered - documented)
    assert not missing, f"docs/metrics.md does not name these metrics: {missing}"
    stale = sorted(documented - registered)
    assert not stale, f"docs/metrics.md names metrics tokwatch does not export: {stale}"


def routes(tmp_path: Path) -> set[str]:
    """Every URL the app answers, dashboard and hub, as the docs write it (`/fleet/NAME`)."""
    from app.config import Config
    from app.hub.service import Hub
    from app.hub.store import HubStore
    from app.live.monitor import Monitor
    from tests.conftest import web_app

    config = Config(log_path=None, port=0, hub=True, data_dir=tmp_path / "data", config_dir=tmp_path / "config")
    store = HubStore(tmp_path / "data" / "hub.sqlite3")
    try:
        app = web_app(config, Monitor(None), hub=Hub(store))
        rules = [rule.rule for rule in app.url_map.iter_rules()]
    finally:
        store.close()
    return {re.sub(r"<(?:\w+:)?(\w+)>", lambda m: m.group(1).upper(), rule) for rule in rules}


def test_every_route_is_documented(tmp_path: Path) -> None:
    answered = routes(tmp_path)
    assert {"/api/snapshot", "/ws", "/fleet/NAME", "/static/FILENAME"} <= answered
    text = "\n".join(p.read_text(encoding="utf-8") for p in MARKDOWN)
    said = {path.rstrip(".,;:)") for span in code_spans(text) for path in re.findall(r"/[\w./<>{}-]*", span)}
    said |= {re.sub(r"\(\.csv\)", "", p) for p in said} | {re.sub(r"\(\.csv\)", ".csv", p) for p in said}
    missing = sorted(route for route in answered - {"/static/FILENAME"} if route not in said)
    assert not missing, f"no page of docs/ names these URLs (architecture.md lists every route): {missing}"


def test_the_config_file_example_is_one_tokwatch_reads() -> None:
    """alerts.md's config.toml parses, every key in it is known, and every key tokwatch knows is in it."""
    from app.config.alerts import _RULE_EXTRAS
    from app.config.file import ALERT_KEYS, FILE_KEYS, file_settings

    blocks = re.findall(r"^```toml\n(.*?)^```", page("alerts.md"), flags=re.DOTALL | re.MULTILINE)
    assert len(blocks) == 1, "docs/alerts.md shows the config file in one ```toml block"
    table = tomllib.loads(blocks[0])
    assert set(table) <= set(FILE_KEYS), f"unknown top-level keys: {set(table) - set(FILE_KEYS)}"
    file_settings(table)  # raises SettingsError on a key or value tokwatch refuses
    shown = set(table["alerts"]) | {key for rule in table["alerts"]["rules"].values() for key in rule}
    known = {*ALERT_KEYS, "enabled", "hold_minutes", *(k for keys in _RULE_EXTRAS.values() for k in keys)}
    missing = sorted(known - shown - {"rules"})
    assert not missing and set(FILE_KEYS) <= set(table), f"docs/alerts.md's config file leaves out: {missing}"


# --- options -------------------------------------------------------------------------------


def test_the_options_tables_are_tokwatch_help() -> None:
    documented = docs_options.documented(page("usage.md"))
    generated = docs_options.table()
    assert " ".join(documented.split()) == " ".join(generated.split()), (
        "docs/usage.md's options tables differ from `tokwatch --help`: run `make docs` "
        "(python -m tests.docs_options --write) and read the diff"
    )


def test_every_option_is_explained_in_the_docs() -> None:
    """Beyond the generated tables, each option is said in words somewhere in docs/."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in PAGES)
    table = docs_options.documented(page("usage.md"))
    prose = text.replace(table, "")
    flags = {flag for _, invocation, _ in docs_options.options(docs_options.cli_parser())
             for flag in re.findall(r"--[a-z][a-z-]*", invocation)} - {"--help"}
    missing = sorted(flag for flag in flags if not re.search(re.escape(flag) + r"(?![a-z-])", prose))
    assert not missing, f"no page of docs/ explains: {missing}"


def test_the_folder_rules_are_said_the_same_way() -> None:
    """--help, docs/usage.md and the code agree on which log of a folder is followed."""
    usage = page("usage.md")
    folders = usage[usage.index("## Folders"):]
    assert MINER_FOLDER_NAME in folders and f"*{MINER_LOG_SUFFIX}" in folders, (
        f"docs/usage.md's Folders section must say that in the {MINER_FOLDER_NAME!r} folder the newest "
        f"*{MINER_LOG_SUFFIX} is followed (app/ingest/folder.py)"
    )
    log_help = next(h for _, invocation, h in docs_options.options(docs_options.cli_parser())
                    if invocation.startswith("--log"))
    assert f"*{MINER_LOG_SUFFIX}" in log_help, f"--log's help does not name *{MINER_LOG_SUFFIX}: {log_help!r}"


# --- links and paths -----------------------------------------------------------------------


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = without_fences(path.read_text(encoding="utf-8"))
    return {slug(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)}


def links(path: Path) -> Iterator[str]:
    text = without_fences(path.read_text(encoding="utf-8"))
    yield from re.findall(r"\]\(([^)\s]+)\)", text)


@pytest.mark.parametrize("doc", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(doc: Path) -> None:
    broken = []
    for target in links(doc):
        if re.match(r"[a-z]+:", target):
            continue  # https://, mailto:
        file_part, _, anchor = target.partition("#")
        resolved = (doc.parent / file_part).resolve() if file_part else doc
        if not resolved.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target} (no such heading)")
    assert not broken, f"{doc.relative_to(ROOT)}: broken links: {broken}"


REPO_PATH = re.compile(r"(?<![\w/.~-])((?:app|static|templates|tests|bench|contrib|docs)/[\w./*-]*[\w/*])")
# What tokwatch or its tools write, never kept in the repository (.gitignore).
GENERATED = ("bench/out/", "test-artifacts/")
MODULE = re.compile(r"(?<![\w/.])((?:app|tokwatch)\.[a-z_]+(?:\.[a-z_]+)*)\b")


@pytest.mark.parametrize("doc", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_named_in_the_docs_exists(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    named = {p for p in REPO_PATH.findall(text) if not p.startswith(GENERATED)}
    missing = sorted(p for p in named if not (any(ROOT.glob(p)) if "*" in p else (ROOT / p).exists()))
    assert not missing, f"{doc.relative_to(ROOT)} names paths that do not exist: {missing}"


def test_every_path_named_in_the_code_exists() -> None:
    """Docstrings and comments point at files too (`app/stats/iota/liveness.py`, docs/snapshot.md)."""
    missing = []
    for source in sorted((ROOT / "app").rglob("*.py")):
        text = source.read_text(encoding="utf-8")
        missing += [f"{source.relative_to(ROOT)}: {p}" for p in sorted(set(REPO_PATH.findall(text)))
                    if not p.startswith(GENERATED) and not (ROOT / p).exists() and not any(ROOT.glob(p))]
    assert not missing, f"the code names paths that do not exist: {missing}"


@pytest.mark.parametrize("doc", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_module_named_in_the_docs_exists(doc: Path) -> None:
    missing = []
    for span in code_spans(doc.read_text(encoding="utf-8")):
        for name in MODULE.findall(span):
            if name.endswith((".js", ".css", ".py", ".html", ".json")):
                continue  # a file name, not a module
            module = "app" + name[len("tokwatch"):] if name.startswith("tokwatch.") else name
            if importlib.util.find_spec(module) is None:
                missing.append(name)
    assert not missing, f"{doc.relative_to(ROOT)} names modules that do not exist: {missing}"


# --- dependencies --------------------------------------------------------------------------


def _requirements(group: str | None) -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    listed = project["dependencies"] if group is None else project["optional-dependencies"][group]
    return [re.split(r"[<>=;\[ ]", requirement, maxsplit=1)[0] for requirement in listed]


def test_every_dependency_says_why_it_is_there() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [name for name in _requirements(None) if f"**{name}**" not in readme]
    assert not missing, f"README.md's Dependencies table does not say why these are needed: {missing}"
    development = page("development.md")
    missing = [name for name in _requirements("test") if f"**{name}**" not in development]
    assert not missing, f"docs/development.md does not say why the tests need: {missing}"


def test_the_readers_above_find_what_they_look_for() -> None:
    """So that a regular expression that matches nothing cannot pass every page."""
    assert REPO_PATH.findall("see `app/snapshot.py` and static/app.js") == ["app/snapshot.py", "static/app.js"]
    assert MODULE.findall("python -m app.record.backfill") == ["app.record.backfill"]
    assert slug("`GET /api/history?range=1h|6h`") == "get-apihistoryrange1h6h"
    table = "| rule | when |\n|---|---|\n| `idle` | … |\n\n| key | meaning |\n|---|---|\n| `state` | `idle` |\n"
    assert table_rows(table, "rule") == {"idle": "| `idle` | … |"}
    assert list(table_rows(table, "key")) == ["state"]
