"""A deal check's verdict in plain words (``/fair`` and ``zzv verify``): what it found,
and the deal card by card. :mod:`engine.verify` answers in codes; the sentences live here.

Seats are named as the table names them, by colour, with their number in the record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from app.http.web.labels import SUITS, seat_colour
from app.http.words import counted
from engine.fairness import COMMITMENT_SCHEME
from engine.verify import RoundDeal, Verdict

HEADLINES = {
    "ok": "It checks out",
    "tampered": "It does not check out",
    "refused": "Nothing to check",
}
"""A verdict's status as a short heading."""


def seat_words(seat: int) -> str:
    """A seat as the page names it: its colour, then its number in the record.

    >>> seat_words(0), seat_words(4)
    ('Pink (seat 0)', 'Purple (seat 4)')
    """
    return f"{seat_colour(seat).capitalize()} (seat {seat})"


def _who(seat: Any) -> str:
    """A seat the record or the replay names; anything else (a record may hold any JSON
    where a seat should be) as its JSON."""
    if seat is None:
        return "nobody"
    if type(seat) is int and seat >= 0:
        return seat_words(seat)
    return json.dumps(seat)


def _move(index: Any) -> str:
    return f"move {int(index) + 1}"


def _checked_out(verdict: Verdict) -> str:
    return (
        "The commitment published when the race started is the SHA-256 of the revealed "
        f"seed and salt; all {counted(verdict.actions, 'move')} are legal with the cards "
        "dealt from that seed; replaying them tells the record's "
        f"{counted(verdict.events, 'event')}, one by one, and its winner, "
        f"{_who(verdict.winner)}."
    )


def _nothing_to_check(code: str, p: dict[str, Any]) -> str:
    """The sentence of a refusal: the record holds nothing to check."""
    match code:
        case "not_a_record":
            return (
                "That is not a race's record. Paste the JSON a finished race's record "
                "gives (GET /api/games/RACE/record), or give the race's id."
            )
        case "not_finished":
            return (
                "This race is not finished yet, so there is nothing to check: its seed and "
                "salt are revealed when it ends."
            )
        case "no_commitment":
            return (
                "This race published no commitment to its deal (the lesson is dealt the "
                "same for everyone), so there is nothing to check."
            )
        case "not_revealed":
            return (
                f"This record does not reveal its deal yet (no {', '.join(p['missing'])}). "
                "A daily deal's seed is published once the day's attempts have closed, a "
                "weekly cup deal's once its week has."
            )
        case "bad_field":
            return f"The record's {p['field']} is not in the form a record gives it."
    raise ValueError(f"No words for the verdict {code!r}.")


def _tampered(code: str, p: dict[str, Any]) -> str:
    """The sentence of a record that does not check out: where it first goes wrong."""
    match code:
        case "commitment_mismatch":
            return (
                f"The commitment published at the start, {p['published']}, is "
                f"not the SHA-256 of the revealed seed and salt, {p['recomputed']}: this is "
                "not the deal the race promised."
            )
        case "illegal_action" if p["seat"] is None:
            return f"The record's {_move(p['index'])} is not a move a race records."
        case "illegal_action":
            return (
                f"The record's {_move(p['index'])} is not a legal move for "
                f"{_who(p['seat'])} with the cards dealt from the revealed seed."
            )
        case "wrong_seat":
            return (
                f"The record gives its {_move(p['index'])} to {_who(p['seat'])}, but "
                f"{_who(p['to_move'])} was to play."
            )
        case "too_many_actions":
            return f"The record lists more than {p['limit']} moves and the race does not end."
        case "actions_after_end":
            return f"The record lists moves after the race was won, from {_move(p['index'])} on."
        case "race_not_over":
            return (
                f"After all {counted(p['actions'], 'move')} of the record the race is not "
                "over, yet the record says it is finished."
            )
        case "event_mismatch":
            return f"Event {p['index'] + 1} of the record is not what replaying the moves tells."
        case "winner_mismatch":
            return (
                f"The record names {_who(p['recorded'])} as the winner, but replaying the "
                f"moves, {_who(p['replayed'])} wins."
            )
    raise ValueError(f"No words for the verdict {code!r}.")


def verdict_sentence(verdict: Verdict) -> str:
    """What the check found, as one or two sentences."""
    if verdict.status == "ok":
        return _checked_out(verdict)
    if verdict.status == "refused":
        return _nothing_to_check(verdict.code, dict(verdict.params))
    return _tampered(verdict.code, dict(verdict.params))


def event_details(verdict: Verdict) -> tuple[tuple[str, str], ...]:
    """For an ``event_mismatch``, the two events side by side as JSON: what replaying the
    moves tells and what the record says ("none" where one has no event there)."""
    if verdict.code != "event_mismatch":
        return ()
    p = verdict.params
    shown = [
        json.dumps(p.get(side), sort_keys=True) if p.get(side) is not None else "none"
        for side in ("replayed", "recorded")
    ]
    return (("Replaying the moves tells", shown[0]), ("The record says", shown[1]))


def cards_words(cards: tuple[Any, ...]) -> str:
    """Cards as the page names them, in the order given ("none" for no card).

    >>> from engine import Suit
    >>> cards_words((Suit.LICHEN, Suit.ZERO)), cards_words(())
    ('Lichen, Zero', 'none')
    """
    return ", ".join(SUITS[card.value].short for card in cards) or "none"


@dataclass(frozen=True, slots=True)
class RoundWords:
    """One round of the deal in words: its heading, each seat's hand, the cards put aside
    (None when the variant puts none aside)."""

    title: str
    hands: tuple[tuple[str, str], ...]
    set_aside: str | None


def round_words(deal: RoundDeal) -> RoundWords:
    """A round as dealt, in words."""
    title = f"Round {deal.round}: {seat_words(deal.lead)} leads the first trick"
    hands = tuple((seat_words(s), cards_words(hand)) for s, hand in enumerate(deal.hands))
    return RoundWords(title, hands, cards_words(deal.set_aside) if deal.set_aside else None)


def scheme_words(seed: Any, salt: Any) -> str:
    """The exact text whose SHA-256 is the commitment, for ``seed`` and ``salt``.

    >>> scheme_words(42, "00ff")
    'zzv-deal-1:42:00ff'
    """
    text = COMMITMENT_SCHEME.removeprefix("sha256(").removesuffix(")")
    return text.format(deal_seed=seed, salt=salt)
