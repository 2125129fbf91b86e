"""Log-format parsers, one module per format, and the registry that names them."""

from __future__ import annotations

from collections.abc import Callable

from . import detect as _sniffing  # before the function below takes the name
from .base import LogParser


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


PARSERS: dict[str, Callable[[], LogParser]] = {
    "iota": _iota,
    # step-based trainers
    "nanochat": _nanochat,
    "nanogpt": _nanogpt("nanogpt"),
    "llmc": _nanogpt("llmc"),
    "modded-nanogpt": _nanogpt("modded-nanogpt"),
    "hf-trainer": _hf_trainer,
    "torchtitan": _torchtitan,
    "sn38": _sn38("sn38"),
    "hivemind": _sn38("hivemind"),
    "generic": _generic,
}

# How a log of each format is called when none of its lines is one (``--format`` forced).
FORMAT_NOUNS = {
    "iota": "an IOTA miner log",
    "nanochat": "a nanochat log",
    "nanogpt": "a nanoGPT log",
    "llmc": "an llm.c log",
    "modded-nanogpt": "a modded-nanogpt log",
    "hf-trainer": "a Hugging Face Trainer log",
    "torchtitan": "a torchtitan log",
    "sn38": "an SN38 miner log",
    "hivemind": "a hivemind log",
    "generic": "a training log",
}

# Formats whose figures are training steps: the monitor gives them the step tracker (app/stats/steps/).
STEP_FORMATS = frozenset(PARSERS) - {"iota"}


class UnknownFormatError(ValueError):
    """A format name no parser answers to."""


def create_parser(name: str) -> LogParser:
    """Build a fresh parser for the named format."""
    try:
        factory = PARSERS[name]
    except KeyError as e:
        raise UnknownFormatError(f"unknown format {name!r}; known: {', '.join(sorted(PARSERS))}") from e
    return factory()


def detect(lines: list[str]) -> str | None:
    """Name the format of these lines, or None when no parser recognises them."""
    return _sniffing.detect(lines)
