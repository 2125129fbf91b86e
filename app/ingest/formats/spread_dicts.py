"""A dict of figures printed one key a line is one line again, as a trainer that prints it on one line writes it.

``json.dumps(stats, indent=2)`` (google/rax's example prints its epochs' metrics so), ``pprint`` of a dict wider
than its 80 columns, and a paste that broke Detectron's ``json_stats: {…}`` record at each key all spread one
record over lines::

    {"accuracy_cls": 0.923639,            Metrics: {
      "iter": 120000,                       "epoch": 3,
      "loss": 0.562384,                     "loss": 370.136,
      "time": 0.562685}                   }

Each key line alone is no record (``"loss": 0.562384,`` has no position), so the lines are joined into the one
record they print (``{"accuracy_cls": 0.923639, "iter": 120000, …}``), read by whoever reads such a record on one
line. The join is bounded and exact: an opening ``{`` at a line's end (or a first key after it, as pprint and the
paste print it), then only lines of one ``"key": value`` each (a value a dict of its own opens and closes the same
way), then its closing ``}`` within :data:`MAX_DICT_LINES` lines. Anything else in between (a blank line, free
text, a log line with its prefix, a key line cut short) leaves every line as printed: nothing is glued.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Iterator
from itertools import repeat

# A dict's lines, its opening and closing ones included, and its characters joined: a stats record of a few dozen
# keys (Detectron's with its FPN levels has 21).
MAX_DICT_LINES = 64
MAX_DICT_CHARS = 8192
MAX_DEPTH = 3

_KEY = r"""(?:"[^"\n]{1,120}"|'[^'\n]{1,120}')\s*:\s*"""
# A value on its key's line: a string, a bare token (a number, ``null``, ``NaN``, ``true``), a call printed by
# repr (``tensor(0.9770, device='cuda:0')``), a short list on one line.
_VALUE = r"""(?:"[^"\n]*"|'[^'\n]*'|[^\s,{}\[\]()"']{1,64}(?:\([^()\n]{0,120}\))?|\[[^\[\]{}\n]{0,400}\]|\{\s*\})"""
_PAIR = rf"{_KEY}{_VALUE}"
# The line that opens a dict: what leads it (a logger's prefix and words, ``json_stats: ``), its ``{`` and maybe a
# first key; never a line with another brace before (a record of its own that happens to end so).
_OPENS = re.compile(rf"(?P<head>[^{{}}\n]{{0,400}})\{{\s*(?:{_PAIR}\s*,)?\s*")
_KEY_LINE = re.compile(rf"\s*{_PAIR}\s*(?P<comma>,)?\s*")
_NESTED_OPENS = re.compile(rf"\s*{_KEY}\{{\s*")
# The closing line: ``}``, ``},`` or the last key with its brace (pprint's ``'time': 0.56}``), and the braces of
# the dicts inside it closed on the same line.
_CLOSES = re.compile(rf"\s*(?:{_PAIR}\s*)?(?P<braces>(?:\}}\s*){{1,{MAX_DEPTH}}})(?P<comma>,)?\s*")

# A list opened under a key (``"log_history": [``, the HF Trainer's trainer_state.json) and its closing line: the
# dicts in it are a JSON document's, whose reader takes them as written (a file is no log of records).
_KEYED_LIST = re.compile(rf"\s*{_KEY}\[\s*")
_LIST_CLOSES = re.compile(r"\s*\],?\s*")
# What any opening line holds: a ``{`` with no brace after it to the line's end, which is there or after a comma.
_MAY_OPEN = re.compile(r"\{(?:[^{}\n]*,)?[ \t\r]*$", re.MULTILINE)


def joined_dicts(lines: Iterable[str], joining: Callable[[], bool] | None = None) -> Iterable[str]:
    """The lines with each dict printed one key a line joined into one (the module's docstring); ``joining``, when
    given, is asked at each dict's opening line whether the reader takes dicts so (a JSON document read whole, as
    the HF Trainer's ``trainer_state.json`` is, keeps its lines)."""
    if isinstance(lines, list) and (not any(map(operator.contains, lines, repeat("{")))
                                    or _MAY_OPEN.search("\n".join(lines)) is None):
        return lines  # no line that could open one (the usual batch, a log of one-line dicts: passes in C)
    return _joined(iter(lines), joining)


def dict_end(lines: list[str], start: int) -> int:
    """Where the dict that ``lines[start]`` opens ends (the index after its closing line), or ``start + 1``."""
    if "{" not in lines[start]:
        return start + 1
    end = _closing(lines, start)
    return end if end is not None and end != _OPEN else start + 1


def _joined(lines: Iterator[str], joining: Callable[[], bool] | None) -> Iterator[str]:
    window: list[str] = []
    keyed_lists = 0  # the lists a document holds under a key that the line is inside (their items stay as written)
    for raw in lines:
        window.append(raw)
        while window:
            first = window[0]
            if keyed_lists or "{" not in first or not _opens(first) or (joining is not None and not joining()):
                if "[" in first and _KEYED_LIST.fullmatch(first.rstrip("\r\n")) is not None:
                    keyed_lists += 1
                elif keyed_lists and _LIST_CLOSES.fullmatch(first.rstrip("\r\n")) is not None:
                    keyed_lists -= 1
                yield window.pop(0)
                continue
            end = _closing(window, 0)
            if end == _OPEN:
                break  # (the dict may close on a line still to come)
            if end is None:
                yield window.pop(0)  # (not a dict after all: its first line as printed, the rest looked at again)
                continue
            yield _one_line(window[:end])
            del window[:end]
    for raw in window:  # (a dict the batch ended inside: its lines as printed)
        yield raw


def _opens(line: str) -> bool:
    return _OPENS.fullmatch(line.rstrip("\r\n")) is not None


# A scan's answer while every line so far is a dict's and its closing line may still come.
_OPEN = -1


def _closing(lines: list[str], start: int) -> int | None:
    """The index after the line that closes the dict opened at ``lines[start]``; :data:`_OPEN` while every line
    after it is a dict's and the closing one may still come (within :data:`MAX_DICT_LINES`); None when it is no
    dict."""
    if not _opens(lines[start]):
        return None
    depth, chars, last = 1, len(lines[start]), False  # (last: an item ended without its comma, only a brace may follow)
    for i in range(start + 1, min(len(lines), start + MAX_DICT_LINES)):
        line = lines[i].rstrip("\r\n")
        chars += len(line)
        if chars > MAX_DICT_CHARS:
            return None
        closing = _CLOSES.fullmatch(line)
        if closing is not None:
            depth -= closing.group("braces").count("}")
            if depth == 0:
                return i + 1
            if depth < 0:
                return None
            last = closing.group("comma") is None
            continue
        if last:
            return None
        if _NESTED_OPENS.fullmatch(line) is not None:
            depth += 1
            if depth > MAX_DEPTH:
                return None
            continue
        key = _KEY_LINE.fullmatch(line)
        if key is None:
            return None
        last = key.group("comma") is None
    return _OPEN if len(lines) < start + MAX_DICT_LINES else None


def _one_line(lines: list[str]) -> str:
    """The dict's lines as one: each stripped and parted by a space; a comma after its closing brace (a list's
    next item follows) left out."""
    first = lines[0].rstrip("\r\n").rstrip()
    rest = [line.strip() for line in lines[1:]]
    rest[-1] = rest[-1].rstrip(",").rstrip()
    return " ".join([first, *rest])
