"""The one registry of log formats: a :class:`FormatSpec` per format, in sniff order, and what is derived from it.

The package's face (app/ingest/formats/__init__.py) re-exports it beside the sniffer, which reads
it too: both import this module, never each other.
"""


from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...stats.kinds import MINER, STEPS, Kind
from .base import LogParser


@dataclass(frozen=True)
class FormatSpec:
    """One log format: its name, how to build its parser, and how the rest of tokwatch treats it."""

    name: str
    parser: Callable[[], LogParser]
    # Formats one parser reads together (nanoGPT, llm.c and modded-nanogpt): a line of one is
    # no news for another, and ``--format`` of one follows a folder's file of any.
    family: str
    kind: Kind  # which tracker follows it (app/stats/kinds.py)
    noun: str  # "a nanochat log": what a log of this format is called when none of its lines is one


def _iota() -> LogParser:
    from .iota import IotaParser

    return IotaParser()


def _nanochat() -> LogParser:
    from .nanochat import NanochatParser

    return NanochatParser()


def _nanogpt(name: str) -> Callable[[], LogParser]:
    def factory() -> LogParser:
        from .nanogpt import NanogptParser

        return NanogptParser(name)

    return factory


def _hf_trainer() -> LogParser:
    from .hf_trainer import HfTrainerParser

    return HfTrainerParser()


def _torchtitan() -> LogParser:
    from .torchtitan import TorchtitanParser

    return TorchtitanParser()


def _generic() -> LogParser:
    from .generic import GenericParser

    return GenericParser()


def _sn38(name: str) -> Callable[[], LogParser]:
    def factory() -> LogParser:
        from .sn38 import Sn38Parser

        return Sn38Parser(name)

    return factory


# In sniff order.
FORMATS: tuple[FormatSpec, ...] = (
    FormatSpec("iota", _iota, "iota", MINER, "an IOTA miner log"),
    FormatSpec("nanochat", _nanochat, "nanochat", STEPS, "a nanochat log"),
    FormatSpec("nanogpt", _nanogpt("nanogpt"), "nanogpt", STEPS, "a nanoGPT log"),
    FormatSpec("llmc", _nanogpt("llmc"), "nanogpt", STEPS, "an llm.c log"),
    FormatSpec("modded-nanogpt", _nanogpt("modded-nanogpt"), "nanogpt", STEPS, "a modded-nanogpt log"),
    FormatSpec("hf-trainer", _hf_trainer, "hf-trainer", STEPS, "a Hugging Face Trainer log"),
    FormatSpec("torchtitan", _torchtitan, "torchtitan", STEPS, "a torchtitan log"),
    FormatSpec("sn38", _sn38("sn38"), "sn38", STEPS, "an SN38 miner log"),
    FormatSpec("hivemind", _sn38("hivemind"), "sn38", STEPS, "a hivemind log"),
    # No signature of its own: read when no format above claims a log (detect.py).
    FormatSpec("generic", _generic, "generic", STEPS, "a training log"),
)
BY_NAME: dict[str, FormatSpec] = {spec.name: spec for spec in FORMATS}

PARSERS: dict[str, Callable[[], LogParser]] = {spec.name: spec.parser for spec in FORMATS}
FORMAT_NOUNS: dict[str, str] = {spec.name: spec.noun for spec in FORMATS}
# Formats whose figures are training steps: the monitor gives them the step tracker (app/stats/steps/).
STEP_FORMATS = frozenset(spec.name for spec in FORMATS if spec.kind == STEPS)


class UnknownFormatError(ValueError):
    """A format name no parser answers to."""


def create_parser(name: str) -> LogParser:
    """Build a fresh parser for the named format."""
    try:
        spec = BY_NAME[name]
    except KeyError as e:
        raise UnknownFormatError(f"unknown format {name!r}; known: {', '.join(sorted(PARSERS))}") from e
    parser = spec.parser()
    if spec.kind == STEPS:
        # Every step trainer's log is read for crashes and skipped steps the same way (crash.py).
        from .crash import CrashAware

        return CrashAware(parser)
    return parser


def renewed(parser: LogParser) -> LogParser:
    """A fresh parser for a new stream of the same log (truncated, replaced). A parser that reads
    a document written whole (the HF Trainer's ``trainer_state.json``) keeps the step its last
    document reached, so a rewrite adds only what is new; any other starts afresh."""
    from .crash import CrashAware
    from .hf_trainer import HfTrainerParser

    inner = parser.parser if isinstance(parser, CrashAware) else parser
    if isinstance(inner, HfTrainerParser):
        return CrashAware(inner.renewed())
    return create_parser(parser.name)


def kind_of(name: str | None) -> Kind:
    """The kind of log a format is (``steps`` or ``miner``); a log not recognised is the miner's, as before."""
    spec = BY_NAME.get(name) if name is not None else None
    return spec.kind if spec is not None else MINER
