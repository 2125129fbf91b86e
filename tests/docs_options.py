"""The options tables of docs/usage.md, written from the command's own parser.

``python -m tests.docs_options --write`` (``make docs``) rewrites the tables between the
markers in docs/usage.md; tests/test_docs.py fails while the page says something else than
``tokwatch --help``. One source of truth for the words: the parser's help strings.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
USAGE = ROOT / "docs" / "usage.md"
BEGIN = "<!-- options: generated from tokwatch --help by `make docs`; edit the help strings, not this table -->"
END = "<!-- options: end -->"


def cli_parser() -> argparse.ArgumentParser:
    """The parser behind ``tokwatch`` (the one place that knows where it is built)."""
    from app.cli.parse import build_parser

    return build_parser()


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _groups(parser: argparse.ArgumentParser) -> Iterator[tuple[str | None, list[argparse.Action]]]:
    """Each argument group with its actions, as ``--help`` lists them (positionals included)."""
    for group in parser._action_groups:
        actions = [a for a in group._group_actions if a.help != argparse.SUPPRESS]
        if actions:
            yield group.title, actions


def options(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str, str]]:
    """(group title, the option as --help writes it, its help text) for every option, subcommands too."""
    formatter = parser._get_formatter()
    for title, actions in _groups(parser):
        for action in actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            invocation = formatter._format_action_invocation(action)
            help_text = formatter._expand_help(action) if action.help else ""
            yield title or "", invocation, help_text
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                for title, invocation, help_text in options(sub):
                    yield f"{parser.prog} {name}: {title}", invocation, help_text


def table(parser: argparse.ArgumentParser | None = None) -> str:
    """The Markdown the markers hold: a table per argument group, in --help's order."""
    parser = parser if parser is not None else cli_parser()
    out: list[str] = []
    current: str | None = None
    for title, invocation, help_text in options(parser):
        if title != current:
            if current is not None:
                out.append("")
            out += [f"**{_cell(title)}**", "", "| option | `--help` says |", "|---|---|"]
            current = title
        out.append(f"| `{_cell(invocation)}` | {_cell(help_text)} |")
    return "\n".join(out)


_BLOCK = re.compile(re.escape(BEGIN) + r"\n(.*?)" + re.escape(END), re.DOTALL)


def documented(page: str) -> str:
    """The tables between the markers of a page (raises ValueError when the markers are missing)."""
    found = _BLOCK.search(page)
    if found is None:
        raise ValueError(f"the options markers are missing from {USAGE.relative_to(ROOT)}:\n{BEGIN}\n…\n{END}")
    return found.group(1).strip()


def write(path: Path = USAGE) -> bool:
    """Rewrite the tables in ``path``; return True when something changed."""
    page = path.read_text(encoding="utf-8")
    documented(page)  # the markers must be there
    updated = _BLOCK.sub(lambda _: f"{BEGIN}\n{table()}\n{END}", page)
    if updated != page:
        path.write_text(updated, encoding="utf-8")
    return updated != page


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        print(f"{USAGE.relative_to(ROOT)}: " + ("options tables rewritten" if write() else "already up to date"))
    else:
        print(table())
