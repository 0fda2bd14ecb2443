"""The review page's sentences: verdicts, moves and each decision's reason in plain words.

Every player-facing sentence of the review page is here (the templates hold only labels),
built from the codes and numbers :func:`app.races.review.reason_data` hands out, so a
later translation pass moves this one module to a catalog.
"""

from __future__ import annotations

from typing import Any

from app.http.web.labels import SUITS
from app.http.words import counted, ordinal

VERDICT_WORDS = {
    "good": "Good",
    "inaccuracy": "Inaccuracy",
    "mistake": "Mistake",
    "blunder": "Blunder",
}

VERDICT_COUNTED = {
    "good": ("good", "good"),
    "inaccuracy": ("inaccuracy", "inaccuracies"),
    "mistake": ("mistake", "mistakes"),
    "blunder": ("blunder", "blunders"),
}
"""How each verdict is counted in the summary: "1 mistake", "0 inaccuracies", "22 good"."""

_BEST_TRICK = {
    "wins": "would have won this trick",
    "likely": "would likely have won this trick",
    "may": "might have won this trick",
    "cannot": "could not have won this trick",
    "passes": "would have passed this trick",
}
_PLAYED_TRICK = {
    "wins": "was sure to win it",
    "likely": "was likely to win it",
    "may": "might have won it",
    "cannot": "could not win it",
    "passes": "passed it",
}
_OWN_TRICK = {
    "wins": "wins this trick",
    "likely": "likely wins this trick",
    "may": "may win this trick",
    "cannot": "cannot win this trick",
    "passes": "passes this trick",
}
_STAKE = {"speed": " (+1 speed)", "lap": " and the lap"}
"""What a won trick brings, after a move that could win it (R15)."""

ONLY_MOVE = "Your only legal move."


def verdict_counts(summary: dict[str, Any]) -> list[tuple[str, str]]:
    """Each verdict of the summary with its count in words, in the summary's order."""
    verdicts: dict[str, int] = summary.get("verdicts", {})
    return [(name, counted(n, *VERDICT_COUNTED[name])) for name, n in verdicts.items()]


def move_words(action: dict[str, Any], yours: bool = False) -> str:
    """A move (as the API writes it) in a few words: "Slippy with 1 gas", "Salty" (no
    gas), "a Tune Up (Jelly)", "the 0/5 card as 5, Chippy down". The seat's own card is
    named: the review page is that seat's alone. ``yours``: after "Your" ("Your Tune Up
    (Jelly)", "Your 0/5 card as 5").

    >>> move_words({"type": "play", "suit": "slippy", "gas": 1, "zero_effect": None})
    'Slippy with 1 gas'
    >>> move_words({"type": "tune_up", "suit": "jelly", "gas": 0})
    'a Tune Up (Jelly)'
    """
    kind = action["type"]
    gas = f" with {action['gas']} gas" if action["gas"] else ""
    if kind == "zero_five":
        discard = SUITS[action["discard"]].short
        card = "0/5 card" if yours else "the 0/5 card"
        return f"{card} as {action['value']}{gas}, {discard} down"
    name = SUITS[action["suit"]].short
    if kind == "tune_up":
        return f"Tune Up ({name})" if yours else f"a Tune Up ({name})"
    effect = f" for {action['zero_effect']}" if action.get("zero_effect") else ""
    return f"{name}{effect}{gas}"


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _percent(value: float) -> str:
    return f"{round(100 * value)}%"


def reason_words(entry: dict[str, Any]) -> str:
    """A decision's reason for its player, from the review's codes (``reason_data``): what
    the better move would have done to the trick and the gas it keeps, then the move played
    (a good move: what it does, and whether another was about as good). A review kept
    before those codes existed keeps its own line (``reason``).

    >>> why = {"trick": 3, "stake": "speed",
    ...        "best": {"trick": "likely", "gas": 2, "race": 0.41},
    ...        "played": {"trick": "cannot", "gas": 0, "race": 0.32}}
    >>> reason_words({"forced": False, "reason_data": why, "reason": "", "verdict": "mistake",
    ...     "best": {"type": "play", "suit": "slippy", "gas": 1, "zero_effect": None},
    ...     "played": {"type": "play", "suit": "chippy", "gas": 3, "zero_effect": None}})
    'Slippy with 1 gas would likely have won this trick (+1 speed) and kept you 2 gas. \
Your Chippy with 3 gas could not win it and left you 0 gas.'
    """
    if entry["forced"]:
        return ONLY_MOVE
    why = entry.get("reason_data")
    if why is None:
        return str(entry["reason"])
    played, best = why["played"], why["best"]
    mine = move_words(entry["played"])
    does = f"{_OWN_TRICK[played['trick']]} and keeps you {played['gas']} gas"
    if entry["played"] == entry["best"]:
        return f"{_upper(mine)} {does}."
    if entry["verdict"] == "good":
        return f"{_upper(mine)} {does}: about as good as {move_words(entry['best'])}."
    stake = _STAKE[why["stake"]] if best["trick"] in ("wins", "likely", "may") else ""
    text = (
        f"{_upper(move_words(entry['best']))} {_BEST_TRICK[best['trick']]}{stake} and kept "
        f"you {best['gas']} gas. Your {move_words(entry['played'], yours=True)} "
        f"{_PLAYED_TRICK[played['trick']]} and left you {played['gas']} gas."
    )
    if (best["trick"], best["gas"]) == (played["trick"], played["gas"]):
        text += " The difference is in the cards you keep for later tricks."
    return text


def chance_words(entry: dict[str, Any]) -> str:
    """What a decision did to the chance of winning the race, in plain numbers.

    >>> chance_words({"played_value": 0.32, "best_value": 0.41})
    'To win the race: 41% with the better move, 32% with yours.'
    """
    best, played = _percent(entry["best_value"]), _percent(entry["played_value"])
    return f"To win the race: {best} with the better move, {played} with yours."


def place_words(round_number: int, trick: int) -> str:
    """ "Round 2, trick 3"."""
    return f"Round {round_number}, trick {trick}"


def graph_words(values: list[float], mistakes: int) -> str:
    """The graph's description for a screen reader: where the chance started, ended and
    fell lowest, and how many mistakes it marks.

    >>> graph_words([0.25, 0.1, 0.4], 1)
    'From 25% after your first decision to 40% after your last; lowest 10%. \
The 1 mistake is marked.'
    """
    if not values:
        return "No decisions."
    verb = "is" if mistakes == 1 else "are"
    marked = f" The {counted(mistakes, 'mistake')} {verb} marked." if mistakes else ""
    return (
        f"From {_percent(values[0])} after your first decision to {_percent(values[-1])} after "
        f"your last; lowest {_percent(min(values))}.{marked}"
    )


def par_words(par: dict[str, Any], yours: dict[str, int]) -> str:
    """ "You finished 2nd (1 lap, 9 tricks); the hard bot in your seat finished 1st ..."

    >>> bot, you = {"place": 1, "laps": 2, "tricks": 12}, {"place": 2, "laps": 1, "tricks": 1}
    >>> mine, theirs = par_words(bot, you).split(";")
    >>> mine, theirs.endswith("1st on this deal (2 laps, 12 tricks).")
    ('You finished 2nd (1 lap, 1 trick)', True)
    """
    return (
        f"You finished {ordinal(yours['place'])} ({_laps_and_tricks(yours)}); the hard bot "
        f"in your seat finished {ordinal(par['place'])} on this deal ({_laps_and_tricks(par)})."
    )


def _laps_and_tricks(result: dict[str, Any]) -> str:
    return f"{counted(result['laps'], 'lap')}, {counted(result['tricks'], 'trick')}"


def with_reasons(review: dict[str, Any]) -> dict[str, Any]:
    """The review's answer with each decision's ``reason`` worded (:func:`reason_words`)."""
    decisions = review.get("decisions")
    if not decisions:
        return review
    return {**review, "decisions": [{**d, "reason": reason_words(d)} for d in decisions]}


__all__ = [
    "ONLY_MOVE",
    "VERDICT_COUNTED",
    "VERDICT_WORDS",
    "chance_words",
    "graph_words",
    "move_words",
    "par_words",
    "place_words",
    "reason_words",
    "verdict_counts",
    "with_reasons",
]
