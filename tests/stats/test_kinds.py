"""Telling a step trainer's tracker from a miner's without loading the step trackers' code."""

from __future__ import annotations

import sys
import types

import pytest

from app.stats import kinds


def test_a_step_tracker_is_one_and_a_miners_is_not() -> None:
    assert kinds.is_step_tracker(kinds.tracker_for("steps", "nanogpt"))
    assert not kinds.is_step_tracker(kinds.tracker_for("miner", "iota"))


def test_a_step_tracker_module_still_loading_in_another_thread_holds_no_tracker(monkeypatch: pytest.MonkeyPatch) -> None:
    # Listed in sys.modules before its body has run (another thread's first import): no class yet.
    monkeypatch.setitem(sys.modules, "app.stats.steps.tracker", types.ModuleType("app.stats.steps.tracker"))
    assert not kinds.is_step_tracker(object())
