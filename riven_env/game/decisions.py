"""Decisions: the moves an agent can make at a decision point.

A :class:`Decision` is a small frozen, hashable record. The same record type covers every
decision point of the game so that agents, the action catalogue of the environments and
the event log can treat decisions uniformly.

Decision kinds by phase:

* ``activate`` phase: ``activate`` (model, dice), ``bonus`` (model; a Momentum bonus
  activation with one action and no roll), ``pass`` (end the side's turn).
* ``action`` phase: one kind per action of the rules data (``move``, ``charge``, ``melee``,
  ``shoot``, ``aim``, ``disengage``, ``focus``, ``rest``, ``stabilise``, ``rally``,
  ``interact``, ``take_cover``, ``finish``) plus ``end`` (end the activation).
* ``spend`` phase (after a 2d6 roll that a spend could change): ``spend`` with an
  ``option`` (``reroll:0``, ``reroll:1``, ``boost``, ``strain``) or ``accept``. Another
  resolution system offers its own options here (``luck:0``, ``favour:1``), and before its
  dice are rolled ``allocate`` ones (a pre-roll choice: helpers, a Combat Pool split), which
  have no ``accept`` (``docs/resolution-systems.md``).
* ``choice`` phase (a resolution system with mid-action choices, such as The Riddle of
  Steel's melee): ``choose`` with the system's ``option``; the side choosing may be the one
  not in its turn (``GameState.decider``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

PHASE_ACTIVATE = "activate"
PHASE_ACTION = "action"
PHASE_SPEND = "spend"
PHASE_CHOICE = "choice"  # a resolution system's mid-action choices (riven_env/game/choices.py)
PHASE_OVER = "over"


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice at a decision point.

    Attributes:
        kind: What is decided (see the module docstring).
        model: Index of the acting model (activation, bonus and actions), or None.
        dice: Number of activation dice (``activate`` only).
        target: Index of the target model (charge, melee, shoot, stabilise, rally, finish).
        destination: ``(kind, ref)`` of a candidate destination of the tabletop
            (move, disengage, take_cover), or ``("objective", i)`` for interact.
        option: The spend option (``spend`` only).
    """

    kind: str
    model: int | None = None
    dice: int | None = None
    target: int | None = None
    destination: tuple[str, int | None] | None = None
    option: str | None = None
    # The generated hash of the fields, computed once: a search keys its tree by decisions and
    # hashes each one at every node it passes (a tenth of a native MCTS simulation's Python).
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(self._fields()))

    def _fields(self) -> tuple:
        return (self.kind, self.model, self.dice, self.target, self.destination, self.option)

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple:
        # Rebuilt from its fields (so the hash is that of the process that unpickles it: str
        # hashes differ between processes).
        return (Decision, self._fields())

    def __str__(self) -> str:
        parts = [self.kind]
        if self.model is not None:
            parts.append(f"m{self.model}")
        if self.dice is not None:
            parts.append(f"{self.dice}d")
        if self.target is not None:
            parts.append(f"->m{self.target}")
        if self.destination is not None:
            kind, ref = self.destination
            parts.append(f"@{kind}" + ("" if ref is None else f":{ref}"))
        if self.option is not None:
            parts.append(self.option)
        return " ".join(parts)


_SHARED: dict[tuple, Decision] = {}
_SHARED_LIMIT = 4096  # distinct decisions of any game are far fewer; a guard, not a tuning knob


def shared_decision(
    kind: str,
    model: int | None = None,
    dice: int | None = None,
    target: int | None = None,
    destination: tuple[str, int | None] | None = None,
    option: str | None = None,
) -> Decision:
    """The one :class:`Decision` object with these fields, built on first use.

    Decisions are immutable and compared by value, so every game can share one object per
    choice: listing the legal decisions then costs a dict lookup per choice instead of a
    frozen-dataclass construction. The store is bounded (cleared when it fills up).
    """
    key = (kind, model, dice, target, destination, option)
    found = _SHARED.get(key)
    if found is None:
        if len(_SHARED) >= _SHARED_LIMIT:
            _SHARED.clear()
        found = _SHARED[key] = Decision(kind, model, dice, target, destination, option)
    return found


def is_listed(decision: Decision, legal: list[Decision]) -> bool:
    """Whether ``decision`` is among ``legal``.

    Agents mostly hand back a listed object (found by identity); a decision they built
    themselves is compared in full only with listed ones of the same kind and model.
    """
    for listed in legal:
        if listed is decision:
            return True
    if not isinstance(decision, Decision):  # whatever an agent got wrong: compare as before
        return decision in legal
    kind, model = decision.kind, decision.model
    for listed in legal:
        if listed.kind == kind and listed.model == model and listed == decision:
            return True
    return False


PASS = Decision("pass")
END_ACTIVATION_KIND = "end"
ACCEPT = Decision("spend", option="accept")
ALLOCATE = "allocate"
"""Kind of a pre-roll choice on a pending roll of another resolution system."""
