"""An RL loop's line an episode, as the generic step reader reads it: the episode its position, its reward the figure.

An RL loop prints a line an episode: the episode named with what it returned beside it (``Episode 120 | reward: 200.0 |
steps: 195``, ``Ep 73 reward -20.0 running reward -20.5``, keon/deep-q-learning's ``episode: 59/1000, score: 21.0``,
hardikbansal/Qlearning's ``Total rewards in episode 88 is 3.79``), maybe with the environment's steps so far; a bare
``steps`` beside it is that episode's length, never the run's position.
"""

from __future__ import annotations

import re

from .classes import Kin, Named
from .fields import NUM, number
from .grammar import Field, Reading, normalise

# The reward an episode's line prints: its running mean where it prints one (``Avg. reward: -19.900``), else its own;
# said in words, the episode between (hardikbansal/Qlearning's ``Total rewards in episode 88 is 3.79``); a score beside
# an episode is its return (keon/deep-q-learning's ``episode: 59/1000, score: 21.0``)
_EPISODE_REWARD = re.compile(rf"(?i)(?:\b(avg\.?|average|mean|running) reward\s?[:=]|\breward\s?[:=]|\brewards? in episode \d+ (?:is|was))"
                             rf"\s?({NUM})(?!.*\b(?:avg\.?|average|mean) reward\s?[:=])")
# The same said with no colon where an episode's line leaves it out (``Ep 73 reward -20.0 running reward -20.5``), or
# as a score: read only on a line :func:`episode_line` made an episode's
_EPISODE_REWARD_BARE = re.compile(rf"(?i)\b(?:(running|avg\.?|average|mean) )?(reward|score)\s?[:=]?\s?({NUM})"
                                  rf"(?!.*\b(?:running|avg\.?|average|mean) reward\b)")
# An episode counted with its total (keon/deep-q-learning's ``episode: 59/1000``)
_EPISODE_OF = re.compile(r"(?i)\bepisode\s?[:=]?\s?(\d+)\s?/\s?(\d+)\b")
# A line that opens with the run's own count (keras-rl's ``18092/100000: episode: 3694, …``): its position is that
_RUN_COUNTED = re.compile(r"^\W{0,3}\d+/\d+:")
# What an episode returned, named beside its number: the line is that episode's record
_EPISODE_RETURNED = re.compile(r"(?i)\b(?:rewards?|return|score)\b")
# The episode a line names: ``episode`` alone, or the end of words that place the line at it (the Keras DQN example's
# ``running reward: 0.31 at episode 302``; ``Total rewards in episode 88``), never a rate's ``per episode``.
_EPISODE_NAME = re.compile(r"^(?:(?:.* )?(?:in|at|after) )?episode$")
# The environment's steps so far that an episode's line prints beside it, in words (hardikbansal/Qlearning's ``total
# number of steps are 4361``; the Keras DQN example's ``frame count 10000``; pytorch-soft-actor-critic's ``total
# numsteps: 24000``): never one episode's own length (``episode steps: 200``, ``steps: 195``).
_EPISODE_ENV_STEPS = re.compile(r"^(?:total (?:number of )?(?:env |environment )?(?:steps|timesteps|numsteps|frames)"
                                r"(?: are| so far)?|frame count)$")


def episode_named(unknown: list[tuple[str, str | None, str, str | None]]) -> Reading | None:
    """The episode a line names, a whole number under the name ``episode`` (or words ending in it), or None."""
    for name, _, value, unit in unknown:
        if _EPISODE_NAME.match(normalise(name)) is not None and unit is None and value.isdigit():
            return Reading(Field.STEP, "episode", float(value))
    return None


def episode_line(readings: list[Reading], unknown: list[tuple[str, str | None, str, str | None]],
                  s: str) -> list[Reading]:
    """An RL loop's line an episode's, its position the episode: the episode named with what it returned beside it
    (``Episode 120 | reward: 200.0 | steps: 195``, ``Ep 73 reward -20.0``, ``episode: 59/1000, score: 21.0``), where a
    bare ``steps`` is that episode's length and ``Ep`` no epoch; where the line names no episode but an episode's
    return (mlpack's ``Average return in last 50 consecutive episodes: -88.2 steps: 340 Episode return: …``), its
    ``steps`` is still that episode's length, never the run's position. Any other line's readings as they are."""
    counts = [r for r in readings if r.field in (Field.STEP, Field.EPOCH, Field.TOTAL)]
    if (_EPISODE_RETURNED.search(s) is None or _RUN_COUNTED.match(s) is not None
            or any(r.field is not Field.LOSS for r in readings if r not in counts)
            or not all(_episode_count(r) for r in counts)):
        return readings
    own = [r for r in counts if r.field is not Field.TOTAL]
    episode_line = _episode_readings(own, unknown, s)
    if episode_line is not own:
        # the environment's steps so far beside the episode (``Total Steps: 62350``), never a planned total
        unknown.extend((r.name, None, f"{r.value:.0f}", None) for r in counts if r.field is Field.TOTAL)
        return [*episode_line, *(r for r in readings if r not in counts)]
    return readings


def _episode_count(reading: Reading) -> bool:
    """True for a count an episode's line may print beside the episode: a bare ``steps`` (its length; a ``step: 30``
    is the run's), ``Ep`` (the episode itself) or the environment's steps so far (``Total Steps: 62350``)."""
    name = normalise(reading.name)
    if reading.field is Field.STEP:
        return reading.total is None and name == "steps"
    if reading.field is Field.EPOCH:
        return name == "ep"
    return _EPISODE_ENV_STEPS.match(name) is not None


def _episode_readings(readings: list[Reading], unknown: list[tuple[str, str | None, str, str | None]],
                      s: str) -> list[Reading]:
    """The readings of a line :func:`episode_line` found an episode's: its episode, or none where it names none."""
    counted = _EPISODE_OF.search(s)
    if counted is not None:
        return [Reading(Field.STEP, "episode", float(counted.group(1)), int(counted.group(2)))]
    ep = next((r for r in readings if r.field is Field.EPOCH), None)
    if ep is not None:
        return [Reading(Field.STEP, "episode", ep.value)] if ep.value.is_integer() else readings
    episode = episode_named(unknown)
    if episode is not None:
        return [episode]
    names = {normalise(name) for name, *_ in unknown}
    if names & {"episode return", "episode reward"} and "episodes" not in names:
        # (a line that counts the run's episodes counts its steps too: baselines' ``episodes: 300 | mean 100 episode
        # reward: -15.2 | steps: 3058``)
        return []
    return readings


def episode_env_steps(unknown: list[tuple[str, str | None, str, str | None]]) -> tuple[Named, ...]:
    """The environment's steps so far an episode's line prints beside it, as a count so far, or nothing."""
    for name, _, value, unit in unknown:
        if unit is None and value.isdigit() and _EPISODE_ENV_STEPS.match(normalise(name)) is not None:
            return (Named(Kin.TIMESTEPS, "env total steps", float(value), name),)
    return ()


def episode_reward(s: str) -> tuple[float, bool, str | None] | None:
    """The reward an episode's line ``s`` prints (``_EPISODE_REWARD``, else ``_EPISODE_REWARD_BARE``), whether it is a
    running mean, and its name as printed (None: unnamed); None where it prints none that reads as a number."""
    said = _EPISODE_REWARD.search(s)
    label = None if said is None else (
        "reward" if " episode " in said.group(0) else said.group(0).split(":")[0].strip())
    if said is None and (said := _EPISODE_REWARD_BARE.search(s)) is not None:
        label = said.group(0)[:said.start(3) - said.start()].rstrip(" :=")
    if said is None or (figure := number(said.group(said.re.groups))) is None:
        return None
    return figure, said.group(1) is not None, label
