"""What a paste left around a log line: the line as the program printed it.

Logs reach tokwatch copied from issues, notebooks and chat as often as straight from a trainer, and
a copy carries marks no trainer printed: a Markdown inline code span's or fence's backticks glued to
the first or last line (`` `completed step: 9, … loss: 0.000` ``), a quote's ``> ``, the ``<pre>``
of an HTML copy, a shell prompt before a command, a terminal's escape sequences pasted in caret
notation (``^[OP^[OP`` from a function key, ``^[[0m`` from a colour code). :func:`unpasted` takes
them off once, in the line pipeline and in the format sniffer alike, so every row and the sniffer
read the same line. Colour codes themselves, NULs, a fence glued to a record and HTML entities are
already gone (``clean``, fields.py).
"""

from __future__ import annotations

import re

# The first characters a pasted mark can give a line: what makes :func:`unpasted` look at it at all.
PASTE_HEADS = "`><$("
# A terminal's escape sequences in caret notation (``^[`` for ESC): CSI (``^[[0m``, ``^[[A``), SS3
# (``^[OP``, a function key), and a lone ``^[`` before a letter.
_CARET_ESCAPE = re.compile(r"\^\[(?:\[[0-9;?]*[ -/]*[@-~]|O[A-Z]|[A-Z\\])")
# Markdown quote marks: ``>`` then a space or the line's end, nested any number of times; never ``>>``
# (the swarm launcher's own ``>> Shutting down trainer...``).
_QUOTE = re.compile(r"(?:>(?:[ \t]|$))+")
# An HTML copy's block around the text.
_HTML_OPEN = re.compile(r"<(?:pre|code)(?: [^>]{0,80})?>(?:<code>)?")
_HTML_CLOSE = re.compile(r"(?:</code>)?</(?:pre|code)>$")
# A shell prompt before a command: ``$ ``, ``user@host:~/dir$ ``, ``root@0a1b:/workspace# ``, maybe
# after a virtual environment's name (``(venv) ``).
_PROMPT = re.compile(r"(?:\([\w.-]{1,40}\) )?(?:[\w.-]{1,64}@[\w.-]{1,64}:[^\s$#]{0,200}[$#]|\$) (?=\S)")


def unpasted(line: str) -> str:
    """The line without what a paste added around it (the module's docstring); the line itself when nothing."""
    if "^[" in line:
        line = _CARET_ESCAPE.sub("", line)
    head = line[:1]
    if head == ">":
        quote = _QUOTE.match(line)
        if quote is not None:
            line = line[quote.end() :]
            head = line[:1]
    if head == "<":
        tag = _HTML_OPEN.match(line)
        if tag is not None:
            line = line[tag.end() :]
            head = line[:1]
    elif head == "$" or head == "(" or "@" in line[:80]:
        prompt = _PROMPT.match(line)
        if prompt is not None:
            line = line[prompt.end() :]
            head = line[:1]
    if line.endswith(">") and "</" in line:
        line = _HTML_CLOSE.sub("", line)
    if head == "`":
        # An inline code span (or a fence) around the whole line, or opened on it and closed on a later one; never
        # a span of the line's own that happens to open it (Lightning's ``\`Trainer.fit\` stopped: …``).
        inner = line.strip("`")
        if "`" not in inner:
            line = inner
        elif line.count("`") % 2 == 1:
            line = line.lstrip("`")
    elif line.endswith("`") and line.count("`") % 2 == 1:
        line = line.rstrip("`")  # the close of a span opened on a line above
    return line


def maybe_pasted(line: str) -> bool:
    """True when :func:`unpasted` could change the line (a cheap test for the per-line path)."""
    return line[:1] in PASTE_HEADS or line.endswith(("`", ">")) or "^[" in line or "@" in line[:80]
