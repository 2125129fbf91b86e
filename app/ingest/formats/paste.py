"""What a paste left around a log line: the line as the program printed it.

Logs reach tokwatch copied from issues, notebooks and chat as often as straight from a trainer, and
a copy carries marks no trainer printed: a Markdown inline code span's or fence's backticks glued to
the first or last line (`` `completed step: 9, … loss: 0.000` ``), a quote's ``> ``, the ``<pre>``
of an HTML copy, a shell prompt before a command, a terminal's escape sequences pasted in caret
notation (``^[OP^[OP`` from a function key, ``^[[0m`` from a colour code), Markdown emphasis an author put
around a figure to point at it (``{'loss': **4.7581**, …}``, ``__0.52__``), a log collector's JSON record
around the line (``{"Timestamp":"2024-09-21T10:34:28.05Z","Body":"Traceback (most recent call last):"}``,
docker's ``{"log":"…\n","stream":"stderr","time":"…"}``). :func:`unpasted` takes
them off once, in the line pipeline and in the format sniffer alike, so every row and the sniffer
read the same line. Colour codes themselves, NULs and a fence glued to a record are already gone
(``clean``, fields.py), and so are the HTML entities of a line copied from a web page's ``<pre>`` or ``<code>``
block (``Epoch 80:  67% 10/15 [02:53&lt;01:18, 15.76s/it]``, ``{&quot;loss&quot;: …}``): ``clean`` calls
:func:`unescaped`, which takes them back only where the line shows it was escaped.
"""

from __future__ import annotations

import html
import json
import re

# The first characters a pasted mark can give a line: what makes :func:`unpasted` look at it at all.
PASTE_HEADS = "`><$({"
# A terminal's escape sequences in caret notation (``^[`` for ESC): CSI (``^[[0m``, ``^[[A``), SS3
# (``^[OP``, a function key), and a lone ``^[`` before a letter.
_CARET_ESCAPE = re.compile(r"\^\[(?:\[[0-9;?]*[ -/]*[@-~]|O[A-Z]|[A-Z\\])")
# Markdown quote marks: ``>`` then a space or the line's end, nested any number of times; never ``>>``
# (the swarm launcher's own ``>> Shutting down trainer...``).
_QUOTE = re.compile(r"(?:>(?:[ \t]|$))+")
# An HTML copy's block around the text.
_HTML_OPEN = re.compile(r"<(?:pre|code)(?: [^>]{0,80})?>(?:<code>)?")
_HTML_CLOSE = re.compile(r"(?:</code>)?</(?:pre|code)>$")
# Markdown emphasis around one number (bold or underscore bold): never ``**kwargs``, ``2**10`` or ``__init__``,
# which hold no number between their marks.
_EMPHASIS = re.compile(r"(?<![\w*])(\*\*|__)([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?%?)\1(?![\w*])")
# A shell prompt before a command: ``$ ``, ``user@host:~/dir$ ``, ``root@0a1b:/workspace# ``, maybe
# after a virtual environment's name (``(venv) ``).
_PROMPT = re.compile(r"(?:\([\w.-]{1,40}\) )?(?:[\w.-]{1,64}@[\w.-]{1,64}:[^\s$#]{0,200}[$#]|\$) (?=\S)")


# A log collector's record: the line under one of these keys, its time under one of those (``docker logs``' json-file
# driver, OpenTelemetry and Loki exports, a JSON logging handler, journald's ``-o json``, Cloud Logging).
_COLLECTED_TEXT = ("log", "Body", "body", "message", "msg", "MESSAGE", "textPayload")
_COLLECTED_TIME = ("time", "Timestamp", "timestamp", "@timestamp", "ts", "TimeUnixNano")
_COLLECTED_NEEDLES = tuple(f'"{key}":' for key in _COLLECTED_TEXT)
_ISO_TIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?")


# An HTML entity a web page's copy of a log holds for a character the log printed: the characters HTML escapes
# (``&lt;``, ``&gt;``, ``&amp;``, ``&quot;``, ``&#39;``, ``&apos;``), a non-breaking space, any numeric one.
_ENTITY = re.compile(r"&(?:lt|gt|amp|quot|apos|nbsp|#\d{1,7}|#[xX][0-9a-fA-F]{1,6});")
# The tags a copy wraps a log in (a block, a line break, emphasis): the copy's, not the log's.
_COPY_TAG = re.compile(r"</?(?:pre|code|samp|kbd|tt|br|p|span|div|b|i|em|strong)\b[^<>]{0,200}>")


def unescaped(line: str) -> str:
    """The line with its HTML entities taken back (``&lt;`` → ``<``), when it was escaped: it holds an entity and
    no ``<`` of its own outside a copy's tags (a line that prints ``<`` raw beside ``&lt;`` printed that ``&lt;``
    itself, as a web server's log would). The line itself otherwise."""
    if _ENTITY.search(line) is None:
        return line
    if "<" in line and "<" in _COPY_TAG.sub("", line):
        return line
    return html.unescape(line).removeprefix("<pre>").removesuffix("</pre>")


def _collected(line: str) -> str | None:
    """The line a log collector's JSON record holds, after its time as ``docker logs -t`` prints it; None for any
    other JSON (a trainer's own record, the HF Trainer's dicts)."""
    if not line.endswith("}") or not any(needle in line for needle in _COLLECTED_NEEDLES):
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict):
        return None
    texts = [record[key] for key in _COLLECTED_TEXT if isinstance(record.get(key), str)]
    when = next((record[key] for key in _COLLECTED_TIME if key in record), None)
    if not texts or when is None:
        return None  # (a record with no time of its own is no collector's: the trainer's own JSON)
    text = str(texts[0]).rstrip("\r\n")
    if isinstance(when, str) and _ISO_TIME.fullmatch(when.strip()):
        return f"{when.strip()} {text}"
    return text


def unpasted(line: str) -> str:
    """The line without what a paste added around it (the module's docstring); the line itself when nothing."""
    if "^[" in line:
        line = _CARET_ESCAPE.sub("", line)
    if "**" in line or "__" in line:
        line = _EMPHASIS.sub(r"\2", line)
    head = line[:1]
    if head == "{":
        collected = _collected(line)
        if collected is None:
            return line
        line, head = collected, collected[:1]
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
    return (line[:1] in PASTE_HEADS or line.endswith(("`", ">")) or "^[" in line or "@" in line[:80]
            or "**" in line or "__" in line)
