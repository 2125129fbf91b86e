"""The generic reader at a pipeline's next stage: the training before it ended, done rather than stalled.

Shape from a real log: jiwoon-ahn/irn issue #13 (https://github.com/jiwoon-ahn/irn/issues/13), the author's
``run_sample.py`` log: ``step.train_cam: <date>``, ``Epoch 1/5``, ``step:  100/ 3305 loss:… lr: … etc:<date>``
every 100 steps, ``validating ... loss: …`` after each epoch, then the pipeline's next stage (``step.make_cam:``).
The figures after epoch 1 are composed; every answer below is computed by hand.
"""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.stats.events import Event, StageEnd, TrainStep

HEAD = ["step.train_cam: Tue Sep 17 14:26:39 2019",
        "Epoch 1/5",
        "step:    0/ 3305 loss:0.6661 imps:0.3 lr: 0.1000 etc:Thu Sep 19 09:26:40 2019",
        "step:  100/ 3305 loss:0.1896 imps:25.8 lr: 0.0973 etc:Tue Sep 17 15:01:01 2019",
        "validating ... loss: 0.0757"]
LAST_EPOCH = ["Epoch 5/5",
              "step: 3200/ 3305 loss:0.0301 imps:95.0 lr: 0.0040 etc:Tue Sep 17 14:37:50 2019",
              "step: 3300/ 3305 loss:0.0299 imps:95.1 lr: 0.0010 etc:Tue Sep 17 14:37:52 2019",
              "validating ... loss: 0.0404"]


def events(lines: list[str]) -> list[Event]:
    return list(GenericParser().feed(lines))


def ends(lines: list[str]) -> list[str]:
    return [e.summary for e in events(lines) if isinstance(e, StageEnd)]


def test_the_next_stage_after_the_last_epoch_s_last_step_ends_the_training() -> None:
    # 3300 + its stride of 100 is past 3305: no step of epoch 5 of 5 is left to print
    for stage in ("step.make_cam: Tue Sep 17 14:38:10 2019", "Step 2: making the class activation maps",
                  "evaluating", "making cams ..."):
        assert ends([*HEAD, *LAST_EPOCH, stage]) == [stage.rstrip()]
    steps = [e for e in events([*HEAD, *LAST_EPOCH, "step.make_cam: x"]) if isinstance(e, TrainStep)]
    assert (steps[-1].step, steps[-1].total_steps, steps[-1].epoch, steps[-1].epoch_total) == (3300, 3305, 5.0, 5)


def test_a_stage_word_before_the_run_s_last_step_ends_nothing() -> None:
    # epoch 4 of 5: another epoch follows
    early = ["Epoch 4/5", "step: 3200/ 3305 loss:0.0301 lr: 0.0040", "step: 3300/ 3305 loss:0.0299 lr: 0.0010"]
    assert ends([*HEAD, *early, "step.make_cam: x"]) == []
    # the last epoch, but 2000 + 100 is short of 3305: steps of it are left
    short = ["Epoch 5/5", "step: 1900/ 3305 loss:0.0301 lr: 0.0040", "step: 2000/ 3305 loss:0.0299 lr: 0.0010"]
    assert ends([*HEAD, *short, "evaluating"]) == []
    # no epoch total printed: nothing says the epoch was the last
    bare = ["step: 3200/ 3305 loss:0.0301 lr: 0.0040", "step: 3300/ 3305 loss:0.0299 lr: 0.0010"]
    assert ends([*bare, "step.make_cam: x"]) == []
