"""Check a finished race's public record (``GET /api/games/{id}/record``, docs/fair-play.md):
recompute its commitment, deal it again from the revealed seed, play every action through
the checked :meth:`engine.game.Game.apply`, and compare the events and the winner. The
:class:`Verdict` is a code with parameters (the app words it) and the deal as replayed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any, Final, Literal

from engine.actions import Action
from engine.cards import Suit
from engine.events import Event, EventKind
from engine.fairness import commit
from engine.game import MAX_DECISIONS, Game, new_game
from engine.refusals import IllegalAction
from engine.variants import Variants

__all__ = ["CODES", "RoundDeal", "Verdict", "verify_record"]

Status = Literal["ok", "tampered", "refused"]

CODES: Final[dict[str, Status]] = {
    "ok": "ok",
    # Refused: not a finished race's revealed record, so there is nothing to check.
    "not_a_record": "refused",
    "not_finished": "refused",
    "no_commitment": "refused",
    "not_revealed": "refused",
    "bad_field": "refused",
    # Tampered: the record contradicts itself or the rules.
    "commitment_mismatch": "tampered",
    "illegal_action": "tampered",
    "wrong_seat": "tampered",
    "too_many_actions": "tampered",
    "actions_after_end": "tampered",
    "race_not_over": "tampered",
    "event_mismatch": "tampered",
    "winner_mismatch": "tampered",
}
"""Every code a :class:`Verdict` may carry, with what it means for the record.

Parameters by code: ``bad_field`` {field}; ``not_revealed`` {missing: [field, ...]};
``commitment_mismatch`` {published, recomputed}; ``illegal_action`` {index, seat};
``wrong_seat`` {index, seat, to_move}; ``too_many_actions`` {limit};
``actions_after_end`` {index}; ``race_not_over`` {actions}; ``event_mismatch`` {index,
replayed, recorded} (an event's JSON form, None where one side has no event there);
``winner_mismatch`` {replayed, recorded}. Indexes count from 0.
"""

_REVEALED = ("deal_seed", "salt", "actions")


@dataclass(frozen=True, slots=True)
class RoundDeal:
    """One round as dealt: who led its first trick, each seat's hand (in suit order) and
    the cards put aside unseen (R18; empty without Larger Hands)."""

    round: int
    lead: int
    hands: tuple[tuple[Suit, ...], ...]
    set_aside: tuple[Suit, ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What checking a record found: ``code`` (a key of :data:`CODES`) and its
    ``params``; and, once the record could be dealt, the ``deal`` round by round as far as
    the replay went, the ``commitment`` recomputed and the ``actions`` replayed."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    deal: tuple[RoundDeal, ...] = ()
    commitment: str | None = None
    actions: int = 0
    events: int = 0
    winner: int | None = None

    @property
    def status(self) -> Status:
        """``ok``, ``tampered`` (the record is wrong) or ``refused`` (nothing to check)."""
        return CODES[self.code]


def _round_deal(game: Game) -> RoundDeal:
    dealt = game.deal_event().data
    return RoundDeal(
        int(dealt["round"]),  # type: ignore[typeddict-item]
        int(dealt["lead"]),  # type: ignore[typeddict-item]
        tuple(tuple(hand) for hand in game.hands),
        tuple(game.set_aside),
    )


def _read(record: object) -> tuple[Game, int, str, list[Any]] | Verdict:
    """The game as dealt, the seed, the salt and the actions; or the refusal."""
    if not isinstance(record, Mapping) or not isinstance(record.get("settings"), Mapping):
        return Verdict("not_a_record")
    if record.get("complete") is not True:
        return Verdict("not_finished")
    published = record.get("commitment")
    if published is None:
        return Verdict("no_commitment")
    missing = [name for name in _REVEALED if record.get(name) is None]
    if missing:
        return Verdict("not_revealed", {"missing": missing})
    seed, salt, actions = (record[name] for name in _REVEALED)
    kinds = {"commitment": str, "deal_seed": int, "salt": str, "actions": list, "events": list}
    for name, kind in kinds.items():
        value = record.get(name)
        if not isinstance(value, kind) or (kind is int and type(value) is not int):  # no bool
            return Verdict("bad_field", {"field": name})
    settings = record["settings"]
    try:
        variants = Variants.from_dict(settings.get("variants") or {})
        game = new_game(players=settings.get("players"), seed=seed, variants=variants)
    except (TypeError, ValueError, AttributeError):
        return Verdict("bad_field", {"field": "settings"})
    return game, seed, salt, actions


Problem = tuple[str, dict[str, Any]]


def _replay(
    game: Game, actions: list[Any]
) -> tuple[list[Any], list[RoundDeal], int, Problem | None]:
    """Play ``actions`` from the deal through the checked path, to the first one refused:
    the events, the deal round by round, the actions played and the problem met (if any)."""
    events, deal = [game.deal_event().to_dict()], [_round_deal(game)]
    for index, entry in enumerate(actions):
        told = _step(game, index, entry)
        if not isinstance(told, list):
            return events, deal, index, told
        events.extend(event.to_dict() for event in told)
        if any(event.kind is EventKind.ROUND_DEALT for event in told):
            deal.append(_round_deal(game))
    problem = None if game.is_over else ("race_not_over", {"actions": len(actions)})
    return events, deal, len(actions), problem


def _step(game: Game, index: int, entry: object) -> list[Event] | Problem:
    """Play action number ``index`` of the record: its events, or the problem it meets."""
    if game.is_over:
        return "actions_after_end", {"index": index}
    if index >= MAX_DECISIONS:
        return "too_many_actions", {"limit": MAX_DECISIONS}
    if not isinstance(entry, Mapping) or type(entry.get("seat")) is not int:
        return "illegal_action", {"index": index, "seat": None}
    seat = entry["seat"]
    try:
        action = Action.from_dict(entry.get("action"))
    except IllegalAction:
        return "illegal_action", {"index": index, "seat": None}
    if seat != game.current_seat:
        return "wrong_seat", {"index": index, "seat": seat, "to_move": game.current_seat}
    try:
        return game.apply(action, seat=seat)
    except IllegalAction:
        return "illegal_action", {"index": index, "seat": seat}


def verify_record(record: object) -> Verdict:
    """Check ``record`` (a finished race's public record, parsed from JSON) as the module
    doc says; the first discrepancy found is the verdict's code, in this order: the
    commitment, the actions, the events, the winner."""
    read = _read(record)
    if isinstance(read, Verdict):
        return read
    assert isinstance(record, Mapping)
    game, seed, salt, actions = read
    recomputed = commit(seed, salt)
    events, deal, played, replayed = _replay(game, actions)
    problem: Problem | None = None
    published = record["commitment"]
    if recomputed != published:
        problem = "commitment_mismatch", {"published": published, "recomputed": recomputed}
    problem = problem or replayed or _first_difference(events, record["events"])
    recorded = record.get("winner")
    if problem is None and (type(recorded) is not int or recorded != game.winner):
        problem = "winner_mismatch", {"replayed": game.winner, "recorded": recorded}
    code, params = problem or ("ok", {})
    return Verdict(code, params, tuple(deal), recomputed, played, len(events), game.winner)


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def _first_difference(replayed: list[Any], recorded: list[Any]) -> Problem | None:
    """The first event where the replay and the record differ, as an ``event_mismatch``
    (compared as JSON, where ``true`` is not ``1``)."""
    for index, (mine, theirs) in enumerate(zip_longest(replayed, recorded)):
        if _json(mine) != _json(theirs):
            return "event_mismatch", {"index": index, "replayed": mine, "recorded": theirs}
    return None
