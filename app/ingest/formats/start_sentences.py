"""A start of training said in a sentence, the whole line: its verb, its subject, the plan it names and its settings.

Scripts say that training starts in their own words, but in one grammar, whatever decoration the line carries around
it (``==> ``, ``*** … ***``, ``----- … -----``, an emoji: ``🚀 STARTING TRAINING``), in any case:

- a verb of starting and a training word (``Starting training``, ``Start train``, ``Begin fine-tuning``), or the
  training word and its verb after it (``Training started``, ``Training has begun``, ``Training begins now``);
- a named method in place of the training word (``Starting MAML for 20 meta epoch(s)``), or a bare ``Training`` /
  ``Train`` with no verb (``==> Training for 100 epochs``), only where a plan follows: without one they are prose; a
  named method's plan only in epochs, a training's own unit (``Start backup for 20 steps`` is any job's);
- then, in any order, the plan (``for 300 epochs``, right after the head its ``for`` left out: ``Beginning training
  500 epochs``, ``for 20 meta epoch(s)``, ``with 100 epochs``, ``from epoch 0 to
  300``, ``from iteration 0 to 40000``) and settings that are no plan (``with 8 GPUs``, ``on cuda:0``, ``using DDP``; after the plan, a script's
  further settings each after a comma: ``…, logging every 1, saving every 50, batch size 4.``).

A plan is the run's total only in its own unit (epochs, or steps/iterations/updates), and never one that says more is
to come (``for 50 more epochs``: a resumed run's rest, not its total) or a part of the run (warmup, evaluation). A
setting holds no unit of the run's length and no word that carries the sentence on (``and``, ``after``, ``never``):
``Training started at 12:00 and never printed an epoch`` is prose, not a start.

``Training batch 5 begins.``, ``Start epoch 2 of training``, ``Starting epoch 3/50``: an announcement that a unit of the
run begins (an epoch, or a step, batch or iteration where the line says it is training's: ``Step 1 of 4 started`` is
an installer's) is a start of training too, before any step; it records no work done (a batch that begins is not yet
trained, and whether its count starts at 0 or 1 is not said), so it never moves the position: only its plan
(``3/50``: 50 epochs) is read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_COUNT = r"\d{1,3}(?:,\d{3})+|\d{1,12}"
# Decoration around the sentence: rules, arrows, stars, brackets of a banner (``==> ``, ``*** Start training ***``),
# and the marks a script dresses its words in (``🚀 STARTING TRAINING``, ``⚙️ ``): the symbol blocks from the arrows
# to the dingbats and misc. symbols and arrows (U+2190–U+2BFF), the emoji planes' pictographs (U+1F000–U+1FAFF), and the
# variation selector and joiner an emoji is drawn with.
_MARKS = "\u2190-\u2bff\ufe0f\u200d\U0001f000-\U0001faff"
_LEAD = re.compile(rf"[\s=\-*#>~+|:\[\]{_MARKS}]+")
# (one class repeated, never a repeat inside a repeat: a long run of rules followed by text must fail fast)
_TAIL = re.compile(rf"[\s.…!:=\-*#<~+|\]{_MARKS}]+$")
_VERB = r"(?:start(?:s|ing)?|begin(?:s|ning)?|launch(?:es|ing)?|commenc(?:e|es|ing))"
_TRAINING = (r"(?:(?:the )?(?:model |network )?(?:meta[- ]?|pre-?|fine-?|re)?(?:training|train(?!\w)|tuning|finetuning)"
             r"(?: (?:loop|process|phase|run|procedure))?)")
_TRAINING_WORD = re.compile(r"(?i)\btrain")
# The heads a start sentence opens with; ``plan`` names those that are prose unless a plan follows.
_HEADS = (
    (re.compile(rf"(?i){_VERB}(?: to)? {_TRAINING}"), False),
    (re.compile(rf"(?i){_TRAINING} (?:has (?:been )?|is |now )?(?:started|begun|begins|starts|starting|launched|commenced)"
                r"(?: now)?"), False),
    (re.compile(rf"(?i){_VERB} (?!to\b|the\b|of\b)[A-Za-z][\w-]{{0,30}}(?: [A-Za-z][\w-]{{0,30}})?(?= (?:for|with) )"), True),
    (re.compile(r"(?i)(?:will |now )?train(?:ing)?(?= for )"), True),
)
_UNIT = r"(?P<unit>epoch|step|iteration|iter|update)(?:s|\(s\))?"
# ``for 300 epochs``, ``for 20 meta epoch(s)``, ``for a total of 10 epochs``, ``with 100 epochs``; right after the head,
# its ``for`` left out (``Beginning training 500 epochs, …``)
_PLAN_FOR = re.compile(rf"(?i)[,:]? ?(?:for|with) (?:a total of |total )?(?P<count>{_COUNT}) "
                       rf"(?P<kind>(?:[a-z]+[ -]){{0,2}}?){_UNIT}(?=\W|$)")
# ``from epoch 0 to 300``, ``from iteration 0 to iteration 40000``
_PLAN_RANGE = re.compile(rf"(?i)[,:]? ?from {_UNIT}\s*:?\s*(?P<start>\d{{1,12}}) to (?:(?:epoch|step|iteration|iter)s? ?)?"
                         rf"(?P<count>{_COUNT})(?=\W|$)")
_PLAN_BARE = re.compile(rf"(?i) (?P<count>{_COUNT}) (?P<kind>){_UNIT}(?=\W|$)")
# A setting that is no plan: ``with 8 GPUs``, ``on cuda:0``, ``using DDP``, ``in mixed precision``
_SETTING = re.compile(r"(?i)[,:]? ?(?:with|on|using|in|at|under|via) (?P<words>[^\s,;]+(?: [^\s,;]+){0,3})(?=[,;]|\s*$| (?:with|on|using|in|at|under|via) )")
# After the plan, a script's further settings each after a comma (``…, logging every 1, saving every 50, batch size 4``)
_LISTED_SETTING = re.compile(r", (?P<words>[^\s,;]+(?: [^\s,;]+){0,4})(?=[,;]|\s*$)")
_NOT_A_SETTING = re.compile(r"(?i)\b(?:epochs?|steps?|iter(?:ation)?s?|updates?|and|but|then|never|not|after|before|when|"
                            r"while|if|because|until|so|it|was|is|does|did|hangs?)\b")
# Kinds of a unit that say it is no total of the run
_NOT_THE_RUN = re.compile(r"(?i)\b(?:more|additional|extra|remaining|further|warm-?up|eval(?:uation)?|valid(?:ation)?|"
                          r"test|log(?:ging)?|sav(?:e|ing)|checkpoint)\b")
# A unit of the run announced as it begins: ``Training batch 5 begins.``, ``Epoch 3 started``, ``Start epoch 2 of
# training``, ``Starting epoch 3/50``, ``Beginning of epoch 4``
_UNIT_BEGINS = re.compile(
    rf"(?i)(?:(?:training:? )?(?:batch|step|iteration|iter|epoch) (?P<n>\d{{1,12}})(?:\s*(?:/|of) ?(?P<of>{_COUNT}))?"
    r" (?:begins|began|starts|started|starting|start|begin)"
    rf"|(?:start(?:ing)?|begin(?:ning)?)(?: of)? (?:training )?(?P<what>batch|step|iteration|iter|epoch) (?P<n2>\d{{1,12}})"
    rf"(?:\s*(?:/|of) ?(?P<of2>{_COUNT}))?(?: of training)?)")


@dataclass(frozen=True, slots=True)
class StartSentence:
    """A start of training said in words: its plan where said (``unit`` "epochs" or "steps", ``count``), the step a
    range starts from (``from iteration 16000 to 40000``), ``name`` the words as printed."""

    name: str
    unit: str | None = None
    count: int | None = None
    start: int | None = None
    start_unit: str | None = None


def _stripped(text: str) -> str:
    """The sentence with the banner's decoration around it gone."""
    lead = _LEAD.match(text)
    body = text[lead.end():] if lead is not None else text
    return _TAIL.sub("", body)


def may_start(text: str) -> bool:
    """True when the line holds a word every start sentence has (a cheap test before :func:`start_sentence`)."""
    return "rain" in text or "RAIN" in text or "tart" in text or "egin" in text or "aunch" in text or "ommenc" in text


def start_sentence(text: str) -> StartSentence | None:
    """The start of training the whole line says in words (the module's docstring), or None."""
    if len(text) > 200:
        return None
    body = _stripped(text)
    begins = _UNIT_BEGINS.match(body)
    if (begins is not None and _rest(body, begins.end(), "") is not None
            and ("epoch" in body.lower() or _TRAINING_WORD.search(body) is not None)):
        # (a step, a batch or an iteration that begins is any job's, ``Step 1 of 4 started`` an installer's, unless the
        # line says it is training's; an epoch is training's own word)
        of = begins.group("of") or begins.group("of2")
        total = int(of.replace(",", "")) if of else 0
        if total > 0 and "epoch" in body.lower():
            return StartSentence(body, "epochs", total)  # (``Starting epoch 3/50``: the run's epochs; a batch's ``/782`` is its epoch's)
        return StartSentence(body)
    for head, needs_plan in _HEADS:
        m = head.match(body)
        if m is None:
            continue
        if needs_plan and _NOT_THE_RUN.search(body[: m.end()]):
            return None  # (``Starting warmup for 5 epochs``: a part of the run, not its plan)
        sentence = _rest(body, m.end(), body[: m.end()])
        if sentence is None or (needs_plan and sentence.unit is None):
            continue
        if needs_plan and sentence.unit != "epochs" and not _TRAINING_WORD.search(sentence.name):
            continue  # (a named job's steps may be anything's, ``Start backup for 20 steps``; its epochs are a training's)
        return sentence
    return None


def _rest(body: str, at: int, name: str) -> StartSentence | None:
    """The plan and settings after a start sentence's head, each clause in turn to the line's end, or None when
    something else follows (prose, a second plan, a plan of no total)."""
    unit: str | None = None
    count: int | None = None
    start: int | None = None
    start_unit: str | None = None
    while at < len(body):
        plan = (_PLAN_FOR.match(body, at) or _PLAN_RANGE.match(body, at)
                or (_PLAN_BARE.match(body, at) if at == len(name) and name else None))
        if plan is not None:
            kind = plan.groupdict().get("kind") or ""
            if unit is not None or _NOT_THE_RUN.search(kind):
                return None
            said = plan.group("unit").lower()
            unit = "epochs" if said == "epoch" else "steps"
            count = int(plan.group("count").replace(",", ""))
            if "start" in plan.groupdict() and plan.group("start") is not None:
                start, start_unit = int(plan.group("start")), "iteration" if said == "iter" else said
            at = plan.end()
            continue
        setting = _SETTING.match(body, at) or (_LISTED_SETTING.match(body, at) if unit is not None else None)
        if setting is None or _NOT_A_SETTING.search(setting.group("words")):
            return None
        at = setting.end()
    if count is not None and count <= 0:
        return None
    return StartSentence(name.strip(), unit, count, start, start_unit)
