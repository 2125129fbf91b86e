"""A second program run in the same terminal after training: an inference or evaluation script's own lines.

A log copied from a terminal may go on past the training with the next command typed at the shell's prompt
(``user@host:~/models/sign$ python -u ../../tools/infer.py -m config.yaml``: PaddleRec's ``tools/infer.py`` after its
``tools/trainer.py``; a repository's ``eval.py``, ``test.py`` or ``predict.py`` after its ``train.py``). That program
loads the saved checkpoints and prints lines shaped like training's (``epoch: 18, batch_id: 0, AUC: …``, its counter
going back): none of them is the training's position, pace or figure, and the training's end stands, unless a step
goes on past the training's last (a training that prints the command of an evaluation it spawns goes on). A command
that runs another script (``python train.py`` again, or ``train_eval.py``: its name says it trains) is a new run, read
as one.
"""

from __future__ import annotations

import re

# A command line running a Python script, its environment and interpreter options before it (the prompt already
# peeled by paste.py): ``python -u ../../tools/infer.py -m config.yaml``, ``CUDA_VISIBLE_DEVICES=0 python3 eval.py``.
_COMMAND = re.compile(r"^(?:[A-Z_][A-Z0-9_]{0,40}=\S{0,200} )*python[\d.]{0,5}(?: -[\w-]{1,20})* (\S{0,300}?)([\w-]{1,80})\.py(?:\s|$)")
# A script's name that says it runs the model, not trains it: ``infer``, ``eval``, ``test``, ``predict`` as a word of
# its name (``infer.py``, ``eval_model.py``, ``run_inference.py``), never inside another word (``contest.py``).
_SIDE_NAME = re.compile(r"(?i)(?:^|[_-])(?:infer|inference|eval|evaluate|evaluation|test|testing|predict|prediction)(?:[_-]|$)")


def launched(text: str) -> bool | None:
    """Whether ``text`` is a command running a script that only runs the model (True), another script (False), or
    no command at all (None)."""
    m = _COMMAND.match(text.strip()) if "python" in text[:80] else None
    if m is None:
        return None
    name = m.group(2)
    return _SIDE_NAME.search(name) is not None and "train" not in name.lower()  # (``train_eval.py`` trains)
