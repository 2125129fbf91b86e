"""The quick event builder makes the very events the classes' own constructors make."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from app.stats import events
from app.stats.events import TrainStep, builder

EVENT_CLASSES = typing.get_args(events.Event)


def _values(cls: type) -> dict[str, object]:
    """A value for every field: its default, or one made up from the field's position."""
    return {
        f.name: f.default if f.default is not dataclasses.MISSING else (f"v{i}" if "str" in str(f.type) else i)
        for i, f in enumerate(dataclasses.fields(cls))
    }


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.__name__)
def test_a_built_event_is_the_class_own_event(cls: type) -> None:
    values = _values(cls)
    built, made = builder(cls)(**values), cls(**values)
    assert type(built) is cls
    assert built == made and hash(built) == hash(made)
    assert builder(cls)(*values.values()) == made  # positionally, as the spool rebuilds them
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.at = 1.0


def test_a_built_step_takes_defaults_and_is_replaced_like_any_other() -> None:
    built = builder(TrainStep)(at=None, stage="train", step=5, loss=2.5)
    assert built == TrainStep(at=None, stage="train", step=5, loss=2.5)
    assert built.figures == () and built.ends_at_total is True and built.mfu is None
    assert dataclasses.replace(built, at=7.0) == TrainStep(at=7.0, stage="train", step=5, loss=2.5)


def test_a_class_with_a_post_init_keeps_its_own_constructor() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        at: float | None

        def __post_init__(self) -> None:
            if self.at is not None and self.at < 0:
                raise ValueError("negative time")

    assert builder(Checked) is Checked
