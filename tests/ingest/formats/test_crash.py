"""The crash watch: what ends a run, what is an error the program caught, and skipped fp16 steps.

The lines are real (each case names where it was printed); the expected crash line is the one a
person would quote when asked "why did it die".
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from app.ingest.formats import create_parser, detect
from app.ingest.formats.crash import CrashWatch
from app.stats.events import RunCrashed, StepFigures, StepSkipped, TrainStep
from tests.coldread import T0, read_cold
from tests.reallogs import body, line


def crashes(lines: list[str]) -> list[str]:
    watch = CrashWatch()
    return [e.error for line in lines for e in watch.see(line) if isinstance(e, RunCrashed)]


def last_crash(lines: list[str]) -> str | None:
    found = crashes(lines)
    return found[-1] if found else None


# lzhxmu/CPPO issue 6: the launcher's traceback and torchrun's failure table (the end of the paste).
CHILD_FAILED = [
    '  File "/home/tiger/site-packages/torch/distributed/launcher/api.py", line 269, in launch_agent',
    "    raise ChildFailedError(",
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
    "============================================================",
    "src/open_r1/grpo_gsm.py FAILED",
    "------------------------------------------------------------",
    "Failures:",
    "  <NO_OTHER_FAILURES>",
    "------------------------------------------------------------",
    "Root Cause (first observed failure):",
    "[0]:",
    "  time      : 2025-05-21_15:43:03",
    "  host      : mlxlab115rp2n7682d40d9-20250521025625-6dyyd3-8nir8b-worker",
    "  rank      : 0 (local_rank: 0)",
    "  exitcode  : -9 (pid: 14750)",
    "  error_file: <N/A>",
    "  traceback : Signal 9 (SIGKILL) received by PID 14750",
    "============================================================",
]
# Megatron-DeepSpeed on Polaris (argonne-lcf/Megatron-DeepSpeed ALCF/README.md): two ranks' tracebacks,
# indented as the README shows them.
MEGATRON_TWO_RANKS = [
    "        saving checkpoint at iteration     200 to checkpoints/ds_stage2_nl32",
    "      Traceback (most recent call last):",
    "      Traceback (most recent call last):",
    '        File "/lus/eagle/Megatron-DeepSpeed/pretrain_gpt_alcf.py", line 575, in <module>',
    "          model = main()",
    '        File "/lus/eagle/torch/nn/modules/module.py", line 1695, in __getattr__',
    "          raise AttributeError(f\"'{type(self).__name__}' object has no attribute '{name}'\")",
    "      AttributeError: 'GPTModel' object has no attribute '_get_tp_replicated_param_patterns'",
]
# BigScience tr1-13B (bigscience-workshop/bigscience train/tr1-13B-base/chronicles.md): the Python
# exception, then C++'s abort of the same death.
ECC = [
    "Traceback (most recent call last):",
    '  File "/gpfswork/Megatron-DeepSpeed-tr1-13B/pretrain_gpt.py", line 222, in <module>',
    "    pretrain(train_valid_test_datasets_provider, model_provider, forward_step,",
    "RuntimeError: transform: failed to synchronize: cudaErrorECCUncorrectable: uncorrectable ECC error encountered",
    "terminate called after throwing an instance of 'c10::Error'",
    "  what():  CUDA error: uncorrectable ECC error encountered",
    "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x42 (0x1500fb4d42f2 in libc10.so)",
]
# mlx-lm issue 236: libc++'s abort, then the shell's notice.
MLX = [
    "Iter 50: Train loss 1.487, Learning Rate 1.000e-05, It/sec 0.372, Tokens/sec 358.620, Trained Tokens 26805",
    ("libc++abi: terminating due to uncaught exception of type std::runtime_error: [METAL] Command buffer execution"
    " failed: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)"),
    "zsh: abort      mlx_lm.lora --model ./Qwen3-8",
]

CRASHES: list[tuple[str, list[str], str | None]] = [
    ("nanochat: CUDA OOM in the optimizer step", body("crash-nanochat-rtx4070-step0-oom-optimizer.log"),
     "RuntimeError: CUDA driver error: out of memory"),
    ("torchrun: ChildFailedError, its table says SIGKILL", CHILD_FAILED,
     "ChildFailedError: Signal 9 (SIGKILL) received by PID 14750 (exit code -9)"),
    # (its ``[E ProcessGroupNCCL.cpp:821] [Rank 0]`` tags are a prefix, as a logger's level is)
    ("NCCL watchdog glued to a bar, then its next rank", body("crash-firefly-issue183-nccl-watchdog-glued-bar.log"),
     ("Watchdog caught collective operation timeout: WorkNCCL(SeqNum=23290,"
     " OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800634 milliseconds before timing out.")),
    ("two ranks' indented tracebacks", MEGATRON_TWO_RANKS,
     "AttributeError: 'GPTModel' object has no attribute '_get_tp_replicated_param_patterns'"),
    ("C++ abort under a Python exception", ECC,
     "RuntimeError: transform: failed to synchronize: cudaErrorECCUncorrectable: uncorrectable ECC error encountered"),
    ("libc++ abort, then zsh's notice", MLX,
     ("libc++abi: terminating due to uncaught exception of type std::runtime_error: [METAL] Command buffer execution"
     " failed: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)")),
    ("LLaMA-Factory: a traceback glued to a bar, behind rank prefixes",
     [" 28%|██▊       | 17/60 [1:24:14<3:32:31, 296.54s/it]Traceback (most recent call last):",
      '[rank0]:   File "/app/src/train.py", line 28, in <module>',
      "[rank0]:     main()",
      "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."],
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."),
    ("killed by the kernel", ["step 120 | loss 2.1", "Killed"], "Killed"),
    ("Ctrl-C", ["iter 40: loss 3.1, time 120.00ms", "^CTraceback (most recent call last):",
                '  File "train.py", line 300, in <module>', "KeyboardInterrupt"], "KeyboardInterrupt"),
    ("a segfault", ["Segmentation fault (core dumped)"], "Segmentation fault (core dumped)"),
    # signals and schedulers (composed in the launchers' own wordings)
    ("torchrun's death signal glued to a Lightning bar, behind glog's warning prefix",
     [("Epoch 2:  41%|████      | 410/1000 [06:50<09:50,  1.00it/s, loss=1.92, v_num=3]W0302 10:59:58.120000 881"
      " torch/distributed/elastic/agent/server/api.py:704] Received 2 death signal, shutting down workers")],
     "Received 2 death signal, shutting down workers"),
    ("torchrun's table: SIGTERM", [*CHILD_FAILED[:-3], "  exitcode  : -15 (pid: 881)", "  error_file: <N/A>",
                                   "  traceback : Signal 15 (SIGTERM) received by PID 881"],
     "ChildFailedError: Signal 15 (SIGTERM) received by PID 881 (exit code -15)"),
    ("scancel: a Slurm step cancelled", ["srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
                                         "slurmstepd: error: *** STEP 4242.0 ON gpu-17 CANCELLED AT 2024-03-02T11:00:12 ***"],
     "slurmstepd: error: *** STEP 4242.0 ON gpu-17 CANCELLED AT 2024-03-02T11:00:12 ***"),
    ("the shell's Terminated", ["step 7 | loss 2.2", "Terminated"], "Terminated"),
    ("a signal handler that saves and goes on",
     ["Epoch 3: 12%|█▏   | 120/1000 [02:00<14:40, 1.00it/s]", "got signal: 10, saving a checkpoint and continuing"],
     None),
    # Lightning caught the user's Ctrl-C and stops: a UserWarning up to 2.0 (with the warnings module's
    # echo of its source line), an info line after
    ("Lightning's interrupt, as a UserWarning",
     body("generic-lightning-delve-s18-file-readme-keyboardinterrupt-epoch19.log")[-2:],
     "Detected KeyboardInterrupt, attempting graceful shutdown..."),
    ("Lightning's interrupt, as info",
     ["Epoch 7:  38%|███▊      | 163/430 [00:41<01:07,  3.96it/s, v_num=2, train_loss=0.412]",
      "Detected KeyboardInterrupt, attempting graceful shutdown ..."],
     "Detected KeyboardInterrupt, attempting graceful shutdown ..."),
    ("the user's Ctrl-C caught and said in other words",
     ["step 40 | loss 2.31 | lr 3e-4", "Caught KeyboardInterrupt, saving the final checkpoint"],
     "Caught KeyboardInterrupt, saving the final checkpoint"),
    ("a Ctrl-C the loop shrugs off", ["step 40 | loss 2.31", "Caught KeyboardInterrupt, continuing"], None),
    ("the kernel's OOM killer", ["[ 8812.443] Out of memory: Killed process 9921 (python) total-vm:88GB"],
     "Out of memory: Killed process 9921 (python) total-vm:88GB"),
    # a launcher taking its ranks down: each rank's kill is the same news; its child's exit status says more
    ("DeepSpeed's launcher kills its ranks (info level)",
     body("crash-hf-deepspeed-issue25027-killed-loading-best-model-after-training.log"), "Killing subprocess 230"),
    ("DeepSpeed's launcher, then its exit code", [
        "[2023-07-25 00:38:05,103] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 230",
        "[2023-07-25 00:38:05,103] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 231",
        ("[2023-07-25 00:38:12,100] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', 'train.py']"
        " exits with return code = -9")],
     "exits with return code = -9"),
    ("torchrun's closing signals, then accelerate's exit status",
     body("crash-composed-torchrun-closing-signals-accelerate-exit-status.log"),
     ("subprocess.CalledProcessError: Command '['/usr/bin/python3', '-m', 'torch.distributed.run', '--nproc_per_node',"
     " '3', 'train.py']' returned non-zero exit status -9.")),
    ("mpirun's notice", ["mpirun noticed that process rank 3 with PID 0 on node gpu-7 exited on signal 9 (Killed)."],
     "mpirun noticed that process rank 3 with PID 0 on node gpu-7 exited on signal 9 (Killed)."),
    ("a subprocess that exits 0 is no crash", ["Command 'nvidia-smi' returned non-zero exit status 0."], None),
    # not crashes
    ("hivemind: a failed download it retries", body("hivemind-issue504-load-state-index-error-retrying.log"), None),
    ("hivemind: logged errors, retried", body("hivemind-issue653-load-state-timeout-retrying.log"), None),
    ("hivemind: a FutureWarning about a non-finite norm",
     body("crash-hivemind-issue443-warning-nonfinite-norm-continues.log"), None),
    ("SN38: asyncio's never-retrieved task exception", body("sn38-readme-asyncio-timeout.log"), None),
    ("SN38: a state download logged as an error", body("sn38-readme-load-state-timeout.log"), None),
    ("hivemind: an averaging round logged as an error", body("hivemind-issue519-could-not-find-a-group.log"), None),
    ("SN38's loop catches an OOM and logs it at WARN",
     [("2025-06-27 14:16:33.089 |       WARN       | Training Loop Failed with error: CUDA out of memory."
      " Tried to allocate 1.53 GiB")], None),
    ("torch's warning about NCCL", ["[W ProcessGroupNCCL.cpp:1250] Warning: NCCL error is not fatal here"], None),
    ("an OOM the trainer recovers from",
     ["| WARNING: ran out of memory with exception: CUDA out of memory. Tried to allocate 1.00 GiB; skipping batch"],
     None),
    ("a training line that mentions no error", ["step 10 | loss 2.0 | Error rate 0.1"], None),
]


@pytest.mark.parametrize(("lines", "expected"), [c[1:] for c in CRASHES], ids=[c[0] for c in CRASHES])
def test_the_crash_line_is_the_one_a_person_would_quote(lines: list[str], expected: str | None) -> None:
    assert last_crash(lines) == expected


KILLED = [
    (CHILD_FAILED, True),
    (["Terminated"], True),
    (["slurmstepd: error: *** JOB 4242 ON gpu-17 CANCELLED AT 2024-03-02T11:00:12 DUE TO TIME LIMIT ***"], True),
    (["W0302 10:59:58.120000 881 api.py:704] Received 1 death signal, shutting down workers"], True),
    (["Traceback (most recent call last):", '  File "t.py", line 1, in <module>', "KeyboardInterrupt"], True),
    (["Detected KeyboardInterrupt, attempting graceful shutdown ..."], True),
    (["2024-05-01 12:00:00 | INFO | Caught KeyboardInterrupt, saving the final checkpoint"], True),
    (["Training interrupted by user."], True),
    (["[2023-07-25 00:38:05,103] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 230"], False),
    (["W1201 10:12:01.220 api.py:700] Sending process 4121 closing signal SIGTERM"], False),
    (["subprocess.CalledProcessError: Command '['python', 'train.py']' returned non-zero exit status -9."], True),
    (["subprocess.CalledProcessError: Command '['python', 'train.py']' returned non-zero exit status 1."], False),
    (["Segmentation fault (core dumped)"], False),
    (["Traceback (most recent call last):", '  File "t.py", line 1, in <module>', "ValueError: bad batch"], False),
]


@pytest.mark.parametrize(("lines", "killed"), KILLED)
def test_a_crash_says_whether_the_run_was_ended_from_outside(lines: list[str], killed: bool) -> None:
    watch = CrashWatch()
    found = [e for line in lines for e in watch.see(line) if isinstance(e, RunCrashed)]
    assert found and found[-1].killed is killed


def test_torch_s_non_finite_norm_warning_is_a_grad_norm_not_a_crash() -> None:
    events = CrashWatch().see(
        "/opt/conda/lib/python3.9/site-packages/transformers/trainer.py:1347: FutureWarning: Non-finite norm"
        " encountered in torch.nn.utils.clip_grad_norm_; continuing anyway.")
    assert len(events) == 1 and isinstance(events[0], StepFigures) and math.isnan(events[0].grad_norm or 0.0)


def test_a_crash_is_said_as_soon_as_its_line_is_read() -> None:
    watch = CrashWatch()
    assert watch.see("Traceback (most recent call last):") == []
    assert watch.see('  File "train.py", line 3, in <module>') == []
    assert watch.see("RuntimeError: CUDA error: device-side assert triggered") == [
        RunCrashed(None, "RuntimeError: CUDA error: device-side assert triggered")
    ]


def test_a_chained_exception_ends_with_its_last_line() -> None:
    lines = ["Traceback (most recent call last):", '  File "a.py", line 1, in f', "KeyError: 'x'", "",
             "During handling of the above exception, another exception occurred:", "",
             "Traceback (most recent call last):", '  File "a.py", line 3, in g', "ValueError: bad batch"]
    assert crashes(lines) == ["KeyError: 'x'", "ValueError: bad batch"]


SKIPS: list[tuple[str, str, float | None]] = [
    ("DeepSpeed (Chinese-LLaMA-Alpaca issue 534)",
     ("[2023-06-07 13:55:57,436] [INFO] [loss_scaler.py:188:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step."
     " Attempted loss scale: 64, reducing to 32"), 32.0),
    ("DeepSpeed (CogVideo issue 233)",
     ("[2024-09-11 18:00:14,125] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step."
     " Attempted loss scale: 4294967296, reducing to 2147483648"), 2147483648.0),
    ("apex", "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0", 32768.0),
    ("fairseq", "2023-06-13 17:37:40 | INFO | fairseq.trainer | NOTE: overflow detected, setting loss scale to: 16384.0",
     16384.0),
    ("fairseq, skipping the update",
     "| WARNING: gradient overflow detected, ignoring gradient, setting loss scale to: 64.0", 64.0),
    ("a Megatron fork", " WARNING: Overflow detected, setting loss scale to 32768.0", 32768.0),
    ("DeepSpeed's fp16 optimizer at its floor",
     ("[2024-03-08 16:33:21,416] [INFO] [unfused_optimizer.py:207:step] [deepspeed] fp16 dynamic loss scale overflow!"
      " Skipping step. Attempted loss scale: 1.0, reducing to 1.0"), 1.0),
    ("apex FP16_Optimizer", "OVERFLOW! Skipping step. Attempted loss scale: 2.0, reducing to 1.0", 1.0),
    ("apex FP16_Optimizer, older", "OVERFLOW! Skipping step. Attempted loss scale: 4294967296", 4294967296.0),
]


@pytest.mark.parametrize(("line", "scale"), [c[1:] for c in SKIPS], ids=[c[0] for c in SKIPS])
def test_a_skipped_fp16_step_and_its_new_loss_scale(line: str, scale: float | None) -> None:
    assert CrashWatch().see(line) == [StepSkipped(None, scale)]


def test_every_step_parser_reads_crashes_in_log_order() -> None:
    """A parser made by the registry follows its step line with the crash glued to it."""
    parser = create_parser("hf-trainer")
    events = parser.feed(body("crash-firefly-issue183-nccl-watchdog-glued-bar.log"))
    kinds = [(type(e).__name__, getattr(e, "step", None)) for e in events if isinstance(e, (TrainStep, RunCrashed))]
    assert kinds == [("TrainStep", 568), ("RunCrashed", None), ("RunCrashed", None)]


@pytest.mark.parametrize(("lines", "crash"), [
    # an unrelated start-up warning, then an exception nothing caught (its first frame is the script's top)
    (["2025-10-14 09:00:05,000 - nanochat.common - WARNING - Peak flops undefined for: NVIDIA A10G",
      "Traceback (most recent call last):",
      '  File "/root/nanochat/scripts/base_train.py", line 180, in <module>',
      "    model = torch.compile(model, dynamic=False)",
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"],
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"),
    # a logger's error record over a traceback from inside a function: the program caught it
    (["2025-10-14 09:00:05,000 - trainer - ERROR - batch failed",
      "Traceback (most recent call last):",
      '  File "/root/train.py", line 80, in step',
      "    loss = model(batch)",
      "RuntimeError: shape mismatch"],
     None),
])  # fmt: skip
def test_a_traceback_from_the_program_s_top_is_uncaught_under_any_record(lines: list[str], crash: str | None) -> None:
    assert last_crash(lines) == crash


def test_a_traceback_the_log_ends_inside_is_a_crash() -> None:
    """DETR's MetricLogger line, then a traceback whose error line never made it into the log: the run
    crashed in its last frame; the error line, when it comes after all, is the one said."""
    parser = create_parser("generic")
    lines = [
        "Epoch: [3]  [ 400/1000]  eta: 0:08:00  lr: 0.000100  loss: 1.2000 (1.3000)  time: 0.8000  data: 0.0100  max mem: 9000",
        "Traceback (most recent call last):",
        '  File "train.py", line 12, in <module>',
        "    main()",
        '  File "engine.py", line 40, in train_one_epoch',
        "    loss.backward()",
    ]
    events = parser.feed(lines)
    said = [e.error for e in events if isinstance(e, RunCrashed)]
    assert said == ['a traceback without its error line; last frame: File "engine.py", line 40, in train_one_epoch']
    assert [e.step for e in events if isinstance(e, TrainStep)] == [400]
    later = parser.feed(["RuntimeError: CUDA out of memory."])
    assert [e.error for e in later if isinstance(e, RunCrashed)] == ["RuntimeError: CUDA out of memory."]


@pytest.mark.parametrize("fmt", ["generic", "hivemind"])
def test_a_log_that_ends_on_a_traceback_s_header_is_a_crash_its_frames_may_still_tell(fmt: str) -> None:
    """A log that stops on ``Traceback (most recent call last):`` lost the rest of the report: crashed,
    its error not known; read live, the frames and the error line that come next say what it was."""
    parser = create_parser(fmt)
    start = ["step 10 loss 2.0 step_time 1.5s"] if fmt == "generic" else [
        "INFO:hivemind_exp.runner.gensyn.testnet_grpo_runner:Registering self with peer ID: QmAbc"]
    events = parser.feed([*start, "Traceback (most recent call last):"])
    said = [(e.error, e.placeholder) for e in events if isinstance(e, RunCrashed)]
    assert said == [("a traceback begun, its frames and error line not in the log", True)]
    later = parser.feed(['  File "train.py", line 12, in <module>', "    main()", "ValueError: bad peer"])
    assert [(e.error, e.placeholder) for e in later if isinstance(e, RunCrashed)] == [("ValueError: bad peer", False)]


@pytest.mark.parametrize("record", [
    # fairseq's own warning print, the loss scale halved once more
    "| WARNING: overflow detected, setting loss scale to: 0.0001220703125",
    # a logging record at warning level (Bl4ckd09/nanochat-on-rtx4070's run, tests/data/real)
    "2026-02-09 13:36:14,481 - nanochat.common - WARNING - Peak flops undefined for: NVIDIA GeForce RTX 4070",
])  # fmt: skip
def test_a_header_alone_at_the_log_s_end_under_a_warning_record_is_a_crash(record: str) -> None:
    """A logger writes a caught error's traceback whole, in one record; a header alone at the end of the log, under a
    record that says nothing of catching it, is Python's report of an uncaught exception cut short: crashed."""
    events = create_parser("generic").feed(["step 10 loss 2.0 step_time 1.5s", record, "Traceback (most recent call last):"])
    said = [(e.error, e.placeholder) for e in events if isinstance(e, RunCrashed)]
    assert said == [("a traceback begun, its frames and error line not in the log", True)]


def test_a_warning_record_s_whole_traceback_that_the_program_goes_on_from_is_no_crash() -> None:
    lines = ["step 10 loss 2.0 step_time 1.5s", "WARNING:root:could not read a sample", "Traceback (most recent call last):",
             '  File "data.py", line 3, in load', "    raise OSError('bad file')", "OSError: bad file",
             "step 11 loss 1.9 step_time 1.5s"]
    events = create_parser("generic").feed(lines)
    assert not any(isinstance(e, RunCrashed) for e in events)


@pytest.mark.parametrize("lines", [
    # a header a logger printed for an error it caught, then retries
    ["Failed to reach the peer, retrying", "Traceback (most recent call last):"],
    # a header with other lines under it and no frame: nothing of a traceback cut at its header
    ["step 10 loss 2.0 step_time 1.5s", "Traceback (most recent call last):", "step 11 loss 1.9 step_time 1.5s"],
])  # fmt: skip
def test_a_traceback_header_caught_or_followed_by_no_frame_is_no_crash(lines: list[str]) -> None:
    events = create_parser("generic").feed(lines)
    assert [e for e in events if isinstance(e, RunCrashed)] == []


def test_a_cut_traceback_that_was_caught_or_has_no_header_is_no_crash() -> None:
    caught = ["step 10 loss 2.0 step_time 1.5s", "Failed to download the state, retrying", "Traceback (most recent call last):",
              '  File "x.py", line 3, in f']
    headless = ["step 10 loss 2.0 step_time 1.5s", '  File "x.py", line 3, in f', "    g()"]
    for lines in (caught, headless):
        events = create_parser("generic").feed(lines)
        assert not any(isinstance(e, RunCrashed) for e in events)


@pytest.mark.parametrize(("lines", "steps"), [
    # the only bar, the watchdog glued to it, behind Ray's prefix (axolotl issue 1495)
    ([("(en-hi-spot, pid=18593)   0%|          | 4/1920 [46:58<304:50:24, 572.77s/it][E ProcessGroupNCCL.cpp:475]"
       " [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=13807, OpType=ALLREDUCE,"
       " Timeout(ms)=1800000) ran for 1800221 milliseconds before timing out.")], [(4, 1920)]),
    # the crash on the line after the bar
    ([" 12%|█▏        | 60/500 [02:00<14:40,  2.00s/it]", "torch.OutOfMemoryError: CUDA out of memory."], [(60, 500)]),
    # an evaluation's bar: no training step
    (["***** Running Evaluation *****", " 10%|█         | 5/50 [00:02<00:18,  2.50it/s]",
      "torch.OutOfMemoryError: CUDA out of memory."], []),
    # a crash long after the bar says nothing of it
    ([" 12%|█▏        | 60/500 [02:00<14:40,  2.00s/it]", "Saving the dataset cache", "Segmentation fault (core dumped)"], []),
])  # fmt: skip
def test_a_crash_right_after_the_only_bar_says_it_was_the_training_step(
    lines: list[str], steps: list[tuple[int, int]]
) -> None:
    events = create_parser("hf-trainer").feed(lines)
    assert [(e.step, e.total_steps) for e in events if isinstance(e, TrainStep)] == steps
    assert any(isinstance(e, RunCrashed) for e in events)


@pytest.mark.parametrize(
    "before",
    [
        "",  # Python's own report, alone on its line
        "[worker-3] ",  # a launcher's bracketed worker name (Ray, accelerate's multi-node logs)
        "[2024-05-01 12:00:00] ",  # a logger's bracketed date
    ],
)
def test_a_bracketed_prefix_before_a_traceback_is_no_progress_bar(before: str) -> None:
    """Only a bar's end (``… 16.31s/it]``) before ``Traceback`` makes it "a traceback after the progress
    bar"; any other bracket before it is a prefix: one crash, said by its error line (not two, one of
    them about a bar that was never drawn)."""
    lines = [
        "iter 100: loss 3.2100, time 120.00ms, mfu 45.00%",
        f"{before}Traceback (most recent call last):",
        '  File "train.py", line 331, in <module>',
        "    loss.backward()",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
    ]
    parser = create_parser("nanogpt")
    found = [e.error for e in parser.feed(lines) if isinstance(e, RunCrashed)]
    assert found == ["torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"]


def test_a_traceback_glued_to_a_bar_is_a_crash_at_once() -> None:
    """The bar's own end before ``Traceback`` (a rank's prefix may follow it) still says the run died there."""
    lines = [" 45%|████▌     | 450/1000 [07:30<09:10,  1.00s/it][rank1]:Traceback (most recent call last):"]
    assert crashes(lines) == ["a traceback after the progress bar (its error line not read)"]


def test_a_traceback_inside_a_logger_s_record_was_caught_and_logged() -> None:
    # A rollout worker's ``logging.exception`` (yuzhaouoe/GUI-Cursor-Moving's verl_demo.log): the record's
    # head ``ERROR:<time>:`` carries the traceback's first line, and training goes on.
    logged = [
        "ERROR:2025-11-19 20:55:34,559:Traceback (most recent call last):",
        '  File "/mnt/cursor/env_and_state.py", line 450, in update_state',
        "    self._extract_action_and_update_cursor(observation, text_input, output_text)",
        '  File "/mnt/cursor/env_and_state.py", line 266, in _extract_action_and_update_cursor',
        '    raise ValueError(f"step {self.step_idx} - extract action failed from: {output_text}")',
        "ValueError: step 0 - extract action failed from: Thought: …",
    ]
    assert crashes(logged) == []
    # The same traceback glued to a progress bar is Python's own report: the run died.
    glued = ["Training Progress:   0%|    | 2/100 [30:24<32:57:40, 879.01s/it]Traceback (most recent call last):",
             *logged[1:]]
    assert crashes(glued)[-1] == "ValueError: step 0 - extract action failed from: Thought: …"


@pytest.mark.parametrize(
    ("lines", "error"),
    [
        # Composed: the header glued to a download bar and cut at the terminal's width mid-word.
        (["Downloading: 100%|##########| 1.2G/1.2G [00:10<00:00, 120MB/s]Traceback (most rec", "ent call last):",
          '  File "/x/train.py", line 10, in <module>', "    main()", '  File "/x/train.py", line 5, in main',
          "    model.cuda()", "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB"],
         "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB"),
        # the header wrapped between two words
        (["Traceback (most recent call", "last):", '  File "/x/train.py", line 10, in <module>', "    main()",
          "RuntimeError: boom"], "RuntimeError: boom"),
        # no header at all: frames, indented source and the error's last line
        (['  File "/x/train.py", line 10, in <module>', "    main()", '  File "/x/train.py", line 5, in main',
          "    model.cuda()", "RuntimeError: CUDA error: out of memory"], "RuntimeError: CUDA error: out of memory"),
    ],
)
def test_crash_evidence_without_a_whole_header_is_a_crash(lines: list[str], error: str) -> None:
    assert crashes(lines) == [error]


def stops(lines: list[str]) -> list[tuple[str, str | None]]:
    """Each crash line read, with what it says of who ended the run (``hand``, ``signal``, None: it died)."""
    watch = CrashWatch()
    return [(e.error, e.stopped) for line in lines for e in watch.see(line) if isinstance(e, RunCrashed)]


@pytest.mark.parametrize(
    ("lines", "stopped"),
    [
        # Ctrl-C: Python's own report, a shell's echo, a trainer that caught it, torchrun's table, an IDE's exit code
        (["Traceback (most recent call last):", '  File "t.py", line 1, in <module>', "KeyboardInterrupt"], "hand"),
        (["^C"], "hand"),
        (["Detected KeyboardInterrupt, attempting graceful shutdown ..."], "hand"),
        (["Training interrupted by user"], "hand"),
        # caught, in words, and the run says it stops (SafeLife issue 23, PartnershipOnAI/safelife: its logger's level padded)
        (["CRITICAL Keyboard Interrupt. Ending early."], "hand"),
        (["Process finished with exit code 130"], "hand"),
        ([line.replace("-9 (pid", "-2 (pid").replace("Signal 9 (SIGKILL)", "Signal 2 (SIGINT)") for line in CHILD_FAILED],
         "hand"),
        # a stop from outside on purpose: SIGTERM, a closed terminal's SIGHUP, the scheduler
        (["Terminated"], "signal"),
        ([("W0302 10:59:58.120000 881 torch/distributed/elastic/agent/server/api.py:704] Received 15 death signal,"
           " shutting down workers")], "signal"),
        (["slurmstepd: error: *** JOB 4242 ON gpu-17 CANCELLED AT 2024-03-02T11:00:12 DUE TO TIME LIMIT ***"], "signal"),
        (["bash: line 1: 4242 Terminated              python train.py"], "signal"),
        (["subprocess.CalledProcessError: Command '['python', 'train.py']' returned non-zero exit status -15."], "signal"),
        # deaths: SIGKILL and the OOM killer, a node failure, an error, a launcher's teardown, a failed exit
        (["Killed"], None),
        (CHILD_FAILED, None),
        (["slurmstepd: error: *** JOB 4242 ON gpu-17 CANCELLED AT 2024-03-02T11:00:12 DUE TO NODE FAILURE ***"], None),
        (["torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB"], None),
        ([("W0302 10:59:58.120000 881 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 881"
           " closing signal SIGTERM")], None),
        (["Process finished with exit code 1"], None),
        # macOS's bash: SIGKILL glued to a bar (gensyn-ai/rl-swarm issue 303), then zsh's note of the script's end
        ([" 85%|████████▌ | 17/20 [13:46<03:05, 61.82s/it]./run_rl_swarm.sh: line 266: 33498 Killed: 9          ",
          "zsh: terminated  ./run_rl_swarm.sh"], None),
        (["./train.sh: line 12: 4242 Terminated: 15          python train.py"], "signal"),
        # Linux's bash for a script's child: SIGKILL glued after a bar (vacancy/NSCL-PyTorch-Release issue 23), SIGTERM
        ([line("crash-nscl-issue23-validation-bar-glued-jac-crun-line-6-pid-killed.log", "Epoch 15 (validation)")], None),
        (["./train.sh: line 12:  4242 Terminated              python train.py"], "signal"),
        # Apple's MPS out of memory with no traceback above it, then the launcher's script ended (rl-swarm issue 341)
        ([("RuntimeError: MPS backend out of memory (MPS allocated: 15.05 GB, other allocations: 11.91 GB, max allowed:"
           " 27.20 GB). Tried to allocate 1.16 GB on private pool."),
          ">> An error was detected while running rl-swarm. See /rl-swarm/logs for full logs.",
          "zsh: terminated  ./run_rl_swarm.sh"], None),
        # hivemind's p2p daemon error alone (the frames left out of a retyped paste), the launcher's own shutdown, zsh's
        # note of the script it ended (gensyn-ai/rl-swarm issue 373): the daemon's error, no stop
        ([("hivemind.p2p.p2p_daemon_bindings.utils.P2PDaemonError: Daemon failed to start: 2025/07/01 02:07:38 failed"
           " to connect to bootstrap peers"),
          "Followed by automatic shutdown:",
          ">> An error was detected while running rl-swarm. See ~/gensyn/test/rl-swarm/logs for full logs.",
          ">> Shutting down trainer...",
          "zsh: terminated  ./run_rl_swarm.sh"], None),
        # the launcher's script failing on its own line, its exit trap's shutdown (``kill -- -$$``), zsh's note
        # (gensyn-ai/rl-swarm issue 208): the script ended itself, nobody stopped it
        (["./run_rl_swarm.sh: line 127: /Users/username/.bashrc: No such file or directory",
          ">> Shutting down trainer...",
          "zsh: terminated ./run_rl_swarm.sh"], None),
    ],
)
def test_a_crash_line_says_whether_someone_stopped_the_run(lines: list[str], stopped: str | None) -> None:
    found = stops(lines)
    assert found, "a line that ends the run"
    assert found[-1][1] == stopped


def test_the_daemon_s_error_alone_is_the_crash_the_shell_s_notice_after_it_says_nothing_new() -> None:
    # gensyn-ai/rl-swarm issue 373: the error line is what ended the trainer; no second crash line after it
    lines = [
        ("hivemind.p2p.p2p_daemon_bindings.utils.P2PDaemonError: Daemon failed to start: 2025/07/01 02:07:38 failed"
         " to connect to bootstrap peers"),
        ">> Shutting down trainer...",
        "zsh: terminated  ./run_rl_swarm.sh",
    ]
    watch = CrashWatch()
    found = [e for line in lines for e in watch.see(line) if isinstance(e, RunCrashed)]
    assert [(e.error, e.killed, e.stopped) for e in found] == [(lines[0], False, None)]


def test_a_shell_s_terminated_after_a_launcher_s_own_shutdown_is_no_kill() -> None:
    # gensyn-ai/rl-swarm issue 208 (its run_rl_swarm.sh's exit trap ends its own process group)
    watch = CrashWatch()
    lines = ["./run_rl_swarm.sh: line 127: /Users/username/.bashrc: No such file or directory",
             ">> Shutting down trainer...", "zsh: terminated ./run_rl_swarm.sh"]
    found = [e for line in lines for e in watch.see(line) if isinstance(e, RunCrashed)]
    assert [(e.error, e.killed, e.stopped) for e in found] == [("zsh: terminated ./run_rl_swarm.sh", False, None)]
    # (the same notice with no shutdown before it is someone's stop)
    alone = [e for e in CrashWatch().see("zsh: terminated ./run_rl_swarm.sh") if isinstance(e, RunCrashed)]
    assert [(e.killed, e.stopped) for e in alone] == [(True, "signal")]


def test_a_traceback_glued_to_a_bar_waits_for_its_error_line_to_say_who_ended_it() -> None:
    # JuncyLu/trl_DAPO run_terminal.md (tests/data/real): the header glued to the bar is read before its cause.
    watch = CrashWatch()
    glued = watch.see("  0%|          | 6/29790 [00:55<64:07:56,  7.75s/it]Traceback (most recent call last):")
    assert [(e.placeholder, e.stopped) for e in glued if isinstance(e, RunCrashed)] == [(True, None)]
    for text in ('  File "grpo_vlm.py", line 660, in <module>', "    trainer.train()"):
        assert watch.see(text) == []
    assert [(e.error, e.stopped) for e in watch.see("KeyboardInterrupt") if isinstance(e, RunCrashed)] == [
        ("KeyboardInterrupt", "hand")]


@pytest.mark.parametrize(("error_line", "said"), [
    # bold around the error's name and first words, the rest after it (a paste into a GitHub issue)
    ("**RuntimeError: CUDA out of memory.** Tried to allocate 1.71 GiB",
     "RuntimeError: CUDA out of memory. Tried to allocate 1.71 GiB"),
    # the whole line in backticks (inline code in an issue or a notebook's markdown cell)
    ("`ValueError: loss is nan`", "ValueError: loss is nan"),
    # a quote of the log
    ("> KeyError: 'labels'", "KeyError: 'labels'"),
])  # fmt: skip
def test_an_error_line_wrapped_in_markdown_is_the_crash_s_error(error_line: str, said: str) -> None:
    lines = ["step 10 loss 2.0 step_time 1.5s", "Traceback (most recent call last):",
             '  File "train.py", line 12, in <module>', "    main()", error_line]
    if error_line.startswith(">"):
        lines = ["step 10 loss 2.0 step_time 1.5s"] + ["> " + line for line in lines[1:-1]] + [error_line]
    events = create_parser("generic").feed(lines)
    assert [e.error for e in events if isinstance(e, RunCrashed)] == [said]


def test_a_caught_error_raised_again_names_the_crash_when_the_second_traceback_is_cut() -> None:
    """detectron2's train loop logs the error it caught, then raises it again; the paste ends inside the
    second traceback: the run died of the error the first one ended in."""
    lines = [
        "[06/09 11:05:20 d2.utils.events]:  iter: 19  total_loss: 1.200  time: 2.8000",
        "ERROR [06/09 11:05:25 d2.engine.train_loop]: Exception during training:",
        "Traceback (most recent call last):",
        '  File "train_loop.py", line 132, in train',
        "    self.run_step()",
        "RuntimeError: CUDA out of memory. Tried to allocate 1.71 GiB",
        "[06/09 11:05:25 d2.engine.hooks]: Total training time: 0:01:02 (0:00:00 on hooks)",
        "Traceback (most recent call last):",
        '  File "train_net.py", line 418, in <module>',
        "    results = main()",
    ]
    said = [e.error for e in create_parser("generic").feed(lines) if isinstance(e, RunCrashed)]
    assert said == ["RuntimeError: CUDA out of memory. Tried to allocate 1.71 GiB"]
    # steps read after the failure the record announced: that failure was said when its error line came, and a later
    # cut traceback, no re-raise of it, says only its frame
    steps = [f"[06/09 11:{6 + i:02d}:25 d2.utils.events]:  iter: {39 + 20 * i}  total_loss: 1.100  time: 2.8000"
             for i in range(9)]
    went_on = lines[:6] + steps + lines[7:]
    said = [e.error for e in create_parser("generic").feed(went_on) if isinstance(e, RunCrashed)]
    assert said == ["RuntimeError: CUDA out of memory. Tried to allocate 1.71 GiB",
                    'a traceback without its error line; last frame: File "train_net.py", line 418, in <module>']


def test_a_traceback_from_the_program_s_top_whose_header_was_lost_is_a_crash() -> None:
    # llm_trainer issue 2's shape: the terminal wrapped ``Traceback (most recent call last):`` into the download bar
    # and the next line; the frames start at ``<module>``, so nothing below caught it. Cut, its error line not read.
    lines = ["h: 0, file: 1/10, batch: 449/78125, loss: 10.166463851928711",
             "./data/train.pkl:  11%|███▍      | 261M/2.35G [01:59<09:18, 3.73MB/s]Traceb",
             "l last):",
             '  File "/home/u/train.py", line 18, in <module>',
             "    trainer.train()",
             '  File "/home/u/.venv/lib/python3.12/site-packages/llm_trainer/trainer.py", line 440, in _on_exception',
             "    raise e"]
    events = create_parser("generic").feed(lines)
    found = [e for e in events if isinstance(e, RunCrashed)]
    assert [(e.error.split(";")[0], e.placeholder) for e in found] == [("a traceback without its error line", True)]
    # its error line, when the paste goes on, says what it was
    watch = CrashWatch()
    seen = [e.error for line in [*lines[3:], "ValueError: bad batch"] for e in watch.see(line) if isinstance(e, RunCrashed)]
    assert seen == ["ValueError: bad batch"]


@pytest.mark.parametrize(("line", "crashed"), [
    ("已杀死", True),  # bash's ``Killed`` in Chinese (dreamerv3 issue 203)
    ("bash: line 1: 4242 已杀死  python train.py", True),
    ("Getötet", True),  # German
    ("強制終了", True),  # Japanese
    ("模型已保存，训练完成", False),
])  # fmt: skip
def test_a_kill_said_in_the_shell_s_language(line: str, crashed: bool) -> None:
    watch = CrashWatch()
    found = [e for e in watch.see(line) if isinstance(e, RunCrashed)]
    assert bool(found) is crashed
    assert all(e.killed for e in found)


D2_838 = "crash-detectron2-issue838-error-exception-during-training-traceback-floatingpointerror-iteration-2137-no-step-lines.log"
_FRAMES = ['  File "train.py", line 40, in train', "    self.run_step()", 'RuntimeError: the loader died at step 7']


@pytest.mark.parametrize(
    "record",
    [
        "ERROR [02/10 22:55:41 d2.engine.train_loop]: Exception during training:",  # detectron2 (it raises it again)
        "2024-05-01 12:00:00,123 - ERROR - Training failed",  # logger.exception
        "ERROR:blocks.main_loop:Error occured during training.",  # Blocks' words
        "2024-05-01 12:00:00,123 - CRITICAL - unhandled error",  # a fatal level
        "[2024-05-01 12:00:00,123][HYDRA] Error executing job with overrides: []",
    ],
)
def test_a_logger_s_record_that_training_failed_makes_its_traceback_the_run_s_end(record: str) -> None:
    lines = [record, "Traceback (most recent call last):", *_FRAMES]
    # (a record that says so in words, ``Training failed``, is the crash on its own line first: its error line says more)
    assert last_crash(lines) == "RuntimeError: the loader died at step 7"
    assert crashes(lines)[:-1] in ([], ["Training failed"])


@pytest.mark.parametrize(
    ("record", "said"),
    [
        ("2025-01-02 10:00:00,123 - __main__ - ERROR - Training failed with error: default_collate: batch must contain tensors",
         "Training failed with error: default_collate: batch must contain tensors"),
        ("__main__ - ERROR - Training failed with error: no such file", "Training failed with error: no such file"),
        ("2025-01-02 10:00:00 - CRITICAL - Run failed: CUDA is not available", "Run failed: CUDA is not available"),
        ("ERROR:root:Training aborted due to a NaN loss", "Training aborted due to a NaN loss"),
        ("[2025-01-02 10:00:00] ERROR: training crashed: worker 3 exited", "training crashed: worker 3 exited"),
        # (its words say it failed with an error, whatever the level a plain print has)
        ("Training failed with error: out of disk space", "Training failed with error: out of disk space"),
    ],
)
def test_a_logger_s_record_that_the_training_or_run_failed_is_a_crash_with_no_traceback(record: str, said: str) -> None:
    assert crashes(["2025-01-02 09:59:58 - INFO - Starting training...", record]) == [said]


@pytest.mark.parametrize(
    "record",
    [
        "2025-01-02 10:00:00 - WARNING - Training failed with error: connection reset",  # a warning level
        "2025-01-02 10:00:00 - ERROR - Training failed with error: connection reset, retrying in 5 s",  # a retry
        "2025-01-02 10:00:00 - ERROR - Training failed to converge within 10 epochs",  # a failure to do something
        "2025-01-02 10:00:00 - INFO - Training failed: 2 of 5 folds",  # no error level, no "with error"
        "2025-01-02 10:00:00 - ERROR - Dry run of the data loader failed",  # no failure of the training or the run
        "2025-01-02 10:00:00 - INFO - Skipping the eval run: it failed with error 3 last time",  # not the run's own
    ],
)
def test_a_failure_at_warning_level_retried_or_of_something_else_is_no_crash(record: str) -> None:
    assert crashes([record]) == []


def test_a_step_after_a_said_failure_is_training_again(tmp_path: Path) -> None:
    # Composed: a run that logs its failure, starts again and steps on: running, no crash shown
    lines = [
        "2025-01-02 10:00:00,000 - __main__ - INFO - Starting training...",
        "2025-01-02 10:00:01,000 - __main__ - ERROR - Training failed with error: Can't pickle local object",
        "2025-01-02 10:00:05,000 - __main__ - INFO - Starting training...",
        "2025-01-02 10:00:06,000 - __main__ - INFO - step 1/100 | loss 2.5000",
        "2025-01-02 10:00:07,000 - __main__ - INFO - step 2/100 | loss 2.4000",
    ]
    crashed = read_cold(tmp_path, lines[:2])
    assert crashed["state"] == "crashed"
    assert crashed["training"]["crash"]["error"] == "Training failed with error: Can't pickle local object"
    data = read_cold(tmp_path, lines)
    assert data["state"] != "crashed"
    assert data["training"]["crash"] is None
    assert data["training"]["step"] == 2


def test_a_logged_error_the_program_goes_on_from_is_still_no_crash() -> None:
    # the same traceback under a record that does not say training failed: caught and logged, the run goes on
    lines = ["2024-05-01 12:00:00,123 - ERROR - could not write the sample image", "Traceback (most recent call last):",
             *_FRAMES]
    assert crashes(lines) == []


def test_detectron2_s_logged_failure_with_no_step_line_is_the_run_s_crash_at_its_iteration(tmp_path: Path) -> None:
    lines = body(D2_838)
    assert detect(lines) == "generic"
    data = read_cold(tmp_path, lines, name=D2_838, at=T0)
    assert data["state"] == "crashed"
    assert data["training"]["crash"]["error"] == "FloatingPointError: Loss became infinite or NaN at iteration=2137!"
    # (no events line: the iteration is the error's own words, shown as the crash's position and said to be theirs)
    assert data["status_line"] == "crashed at iteration 2137 (as the error says)"
    assert data["training"]["step"] == 2137
    assert data["training"]["step_said"] == "the crash's own words"


def test_step_lines_win_over_the_position_a_crash_names(tmp_path: Path) -> None:
    # Composed: detectron2's events line at iteration 19 (its words as facebookresearch/detectron2 issue 214 pastes
    # them), then the anomaly check's error naming iteration 23: the step line read is the position, the crash's
    # words stay in its own line
    lines = [
        ("[11/01 20:14:15 d2.utils.events]: eta: 5:41:49  iter: 19  total_loss: 1.707  loss_cls: 1.184  "
         "loss_box_reg: 0.475  time: 0.2293  data_time: 0.0033  lr: 0.003796  max_mem: 3782M"),
        "Traceback (most recent call last):",
        '  File "train_net.py", line 73, in train_loop',
        "    self.run_step()",
        "FloatingPointError: Loss became infinite or NaN at iteration=23!",
    ]
    data = read_cold(tmp_path, lines)
    assert data["state"] == "crashed"
    assert data["training"]["step"] == 19
    assert "step_said" not in data["training"]
    assert "(as the error says)" not in data["status_line"]


def test_the_shell_s_killed_glued_to_a_keras_bar_is_the_run_killed(tmp_path: Path) -> None:
    """Composed Keras 1 output (its shape as keras-team/keras#3476 pasted it): one ``fit`` call's closing line, then
    the next call's bar at 1280/2560 with the shell's ``Killed`` written right after it (the bar had no newline when
    the process died): the run was killed at 1280 of 2560 samples, its loss 2.1371 (the bar's, without the word)."""
    lines = [
        "Epoch 1/1",
        "2560/2560 [==============================] - 64s - loss: 2.3065 - val_loss: 3.8720",
        "Epoch 1/1",
        "1280/2560 [==============>...............] - ETA: 32s - loss: 2.1371Killed",
    ]
    data = read_cold(tmp_path, lines, name="run.log")
    assert data["details"][0] == "Crashed (killed): Killed"
    assert "Loss 2.1371 (as printed)" in data["details"]
    watch = CrashWatch()
    found = [e for text in lines for e in watch.see(text) if isinstance(e, RunCrashed)]
    assert [(e.error, e.killed, e.stopped) for e in found] == [("Killed", True, None)]
    # (a loss that merely ends in a digit, or a word ending in Killed after a letter, is no death)
    assert CrashWatch().see("1280/2560 [======>.....] - ETA: 32s - loss: 2.1371") == []
    assert CrashWatch().see("INFO worker overKilled") == []
