"""A run's planned length printed only in the arguments it echoes as it starts.

Trainers echo their configuration before the first step, in a few shapes: argparse's
``Namespace(batch_size=64, epochs=30, lr=0.001)``, a dict's ``{'epochs': 100, 'batch_size': 64}``,
a YAML-ish dump one key a line (``  epochs: 32``), nanoGPT's config echo ``Overriding: max_iters = 5000``,
a command line's ``--max_steps 1000``. Of its keys, those that name the run's length say either its
epochs (``epochs``, ``num_train_epochs``, ``max_epochs``) or its steps (``max_steps``, ``total_steps``,
``max_iters``); the reader makes each the total of a counter of its own unit only, and a total printed
later (a bar's ``/N``, ``Epoch 3/10``) wins. Look-alikes are other keys (``warmup_steps``, ``eval_steps``,
``save_steps``, ``logging_steps``, ``warmup_epochs``), an unset value (``max_epochs=-1``, ``max_steps=0``)
or a key nested inside another structure (a scheduler's own ``{'epochs': 10}`` inside the arguments).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_EPOCH_KEYS = frozenset({"epochs", "num_epochs", "n_epochs", "nepochs", "num_epoch", "max_epochs", "max_epoch",
                         "total_epochs", "train_epochs", "num_train_epochs", "epoch_num", "n_epoch"})
_STEP_KEYS = frozenset({"max_steps", "total_steps", "num_steps", "train_steps", "num_train_steps", "max_iters",
                        "max_iter", "max_iterations", "num_iterations", "total_iters", "total_iterations",
                        "train_iters", "max_update", "max_updates"})
# A dotted key is the run's only under these (Hydra's ``trainer.max_epochs=50``, detectron2's ``SOLVER.MAX_ITER``)
_OWN_PREFIXES = frozenset({"trainer", "training", "train", "args", "config", "cfg", "solver", "optim"})
# A key and its whole-number value: ``key=30``, ``'key': 30``, ``key: 30``, ``key = 30``, a command line's
# ``--key 30`` or ``--key=30``
_PAIR = re.compile(
    r"""(?:^|(?<=[\s(,{]))(?:--(?P<flag>[A-Za-z_][\w.-]{0,60})(?:\s+|=)|(?P<q>['"]?)(?P<key>[A-Za-z_][\w.-]{0,60})(?P=q)"""
    r"""\s*[:=]\s*)(?P<value>-?(?:\d{1,3}(?:,\d{3})+|\d{1,12})(?:\.0+)?)(?![\w.])""")
# A count this large is no plan: a trainer's "until stopped" (Python's ``sys.maxsize``)
_UNBOUNDED = 2**31
_OPENING, _CLOSING = "([{", ")]}"


@dataclass(frozen=True, slots=True)
class RunArgs:
    """The run's length its arguments say: epochs, steps (either None), and the keys as printed."""

    epochs: int | None
    steps: int | None
    steps_key: str | None


def _depth(text: str, at: int) -> int:
    """How deep inside brackets ``at`` lies (quoted text is not looked into: paths, descriptions)."""
    depth, quote = 0, ""
    for ch in text[:at]:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in _OPENING:
            depth += 1
        elif ch in _CLOSING:
            depth -= 1
    return depth


def _own_key(key: str) -> str | None:
    """The key's own name when it is the run's: lower case, ``-`` read as ``_``, a dotted key under a run's prefix."""
    name = key.lower().replace("-", "_")
    if "." in name:
        prefix, _, name = name.rpartition(".")
        if prefix.split(".")[-1] not in _OWN_PREFIXES:
            return None
    return name


def run_args(text: str) -> RunArgs | None:
    """The planned epochs and steps the arguments on this line say (the module's docstring), or None."""
    low = text.lower()
    if "epoch" not in low and "step" not in low and "iter" not in low and "update" not in low:
        return None
    found = [(m, _depth(text, m.start())) for m in _PAIR.finditer(text)]
    if not found:
        return None
    # (the arguments' own level: the least deep of their numbers; a structure nested in them is deeper)
    top = min(depth for _, depth in found)
    epochs: int | None = None
    steps: int | None = None
    steps_key: str | None = None
    for m, depth in found:
        key = m.group("flag") or m.group("key")
        name = _own_key(key)
        if name is None or (name not in _EPOCH_KEYS and name not in _STEP_KEYS):
            continue
        if depth != top:
            continue  # (a structure's own key inside the arguments: a scheduler's ``{'epochs': 10}``)
        value = int(float(m.group("value").replace(",", "")))
        if value <= 0 or value >= _UNBOUNDED:
            continue  # unset (``max_epochs=-1``, HF's ``max_steps=-1``; its ``Num Epochs = 9,223,372,036,854,775,807``)
        if name in _EPOCH_KEYS and epochs is None:
            epochs = value
        elif name in _STEP_KEYS and steps is None:
            steps, steps_key = value, key
    if epochs is None and steps is None:
        return None
    return RunArgs(epochs, steps, steps_key)
