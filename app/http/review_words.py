"""Every sentence of the review page (its templates hold only labels): verdicts, moves and
each decision's reason in plain words, from the codes and numbers
:func:`app.races.review.reason_data` hands out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.http.i18n import N_, ngettext, ordinal, percent
from app.http.i18n import gettext as _
from app.http.web.labels import SUITS

# Each verdict's word, and its count ("2 mistakes").
_VERDICTS: dict[str, tuple[str, Callable[[int], str]]] = {
    "good": (N_("Good"), lambda n: ngettext("%(num)s good", "%(num)s good", n)),
    "inaccuracy": (
        N_("Inaccuracy"),
        lambda n: ngettext("%(num)s inaccuracy", "%(num)s inaccuracies", n),
    ),
    "mistake": (N_("Mistake"), lambda n: ngettext("%(num)s mistake", "%(num)s mistakes", n)),
    "blunder": (N_("Blunder"), lambda n: ngettext("%(num)s blunder", "%(num)s blunders", n)),
}


_TRICK = {
    "wins": (N_("would have won this trick"), N_("was sure to win it"), N_("wins this trick")),
    "likely": (
        N_("would likely have won this trick"),
        N_("was likely to win it"),
        N_("likely wins this trick"),
    ),
    "may": (N_("might have won this trick"), N_("might have won it"), N_("may win this trick")),
    "cannot": (
        N_("could not have won this trick"),
        N_("could not win it"),
        N_("cannot win this trick"),
    ),
    "passes": (N_("would have passed this trick"), N_("passed it"), N_("passes this trick")),
}
"""What a move does to the trick, by its chance: said of the better move ("would have"),
of the move played beside it, and of a good move (the index :data:`BEST`, :data:`PLAYED`,
:data:`OWN`)."""

BEST, PLAYED, OWN = 0, 1, 2


# What a won trick brings, after a move that could win it (R15).
_STAKE = {"speed": N_(" (+1 speed)"), "lap": N_(" and the lap")}


def verdict_counts(summary: dict[str, Any]) -> list[tuple[str, str]]:
    verdicts: dict[str, int] = summary.get("verdicts", {})
    return [(name, _VERDICTS[name][1](n) % {"num": n}) for name, n in verdicts.items()]


def move_words(action: dict[str, Any], yours: bool = False) -> str:
    """A move (as the API writes it) in a few words: "Slippy with 1 gas", "Salty" (no
    gas), "a Tune Up (Jelly)", "the 0/5 card as 5, Chippy down". The seat's own card is
    named: the review page is that seat's alone. ``yours``: after "Your" ("Your Tune Up
    (Jelly)", "Your 0/5 card as 5")."""
    kind = action["type"]
    gas = action["gas"]
    if kind == "zero_five":
        values = {"value": action["value"], "gas": gas, "down": SUITS[action["discard"]].short}
        if yours:
            if gas:
                return _("0/5 card as %(value)s with %(gas)s gas, %(down)s down") % values
            return _("0/5 card as %(value)s, %(down)s down") % values
        if gas:
            return _("the 0/5 card as %(value)s with %(gas)s gas, %(down)s down") % values
        return _("the 0/5 card as %(value)s, %(down)s down") % values
    name = SUITS[action["suit"]].short
    if kind == "tune_up":
        return (_("Tune Up (%(card)s)") if yours else _("a Tune Up (%(card)s)")) % {"card": name}
    card = name
    effect = action.get("zero_effect")
    if effect == "speed":
        card = _("%(card)s for speed") % {"card": name}
    elif effect:
        card = _("%(card)s for gas") % {"card": name}
    return _("%(card)s with %(gas)s gas") % {"card": card, "gas": gas} if gas else card


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def reason_words(entry: dict[str, Any]) -> str:
    """A decision's reason for its player, from the review's codes (``reason_data``): what
    the better move would have done to the trick and the gas it keeps, then the move played
    (a good move: what it does, and whether another was about as good). A review kept
    before those codes existed keeps its own line (``reason``)."""
    if entry["forced"]:
        return _("Your only legal move.")
    why = entry.get("reason_data")
    if why is None:
        return str(entry["reason"])
    played, best = why["played"], why["best"]
    if entry["played"] == entry["best"] or entry["verdict"] == "good":
        own = {
            "move": _upper(move_words(entry["played"])),
            "does": _(_TRICK[played["trick"]][OWN]),
            "gas": played["gas"],
            "other": move_words(entry["best"]),
        }
        if entry["played"] == entry["best"]:
            return _("%(move)s %(does)s and keeps you %(gas)s gas.") % own
        return _("%(move)s %(does)s and keeps you %(gas)s gas: about as good as %(other)s.") % own
    stake = _(_STAKE[why["stake"]]) if best["trick"] in ("wins", "likely", "may") else ""
    text = _(
        "%(best)s %(best_does)s%(stake)s and kept you %(best_gas)s gas. "
        "Your %(played)s %(played_does)s and left you %(played_gas)s gas."
    ) % {
        "best": _upper(move_words(entry["best"])),
        "best_does": _(_TRICK[best["trick"]][BEST]),
        "stake": stake,
        "best_gas": best["gas"],
        "played": move_words(entry["played"], yours=True),
        "played_does": _(_TRICK[played["trick"]][PLAYED]),
        "played_gas": played["gas"],
    }
    if (best["trick"], best["gas"]) == (played["trick"], played["gas"]):
        text += " " + _("The difference is in the cards you keep for later tricks.")
    return text


def decision_words(entry: dict[str, Any]) -> dict[str, str]:
    """A reviewed decision's verdict, its place ("Round 2, trick 3"), its reason and what it
    did to the chance of winning the race, in plain numbers."""
    place = {"round": entry["round"], "trick": entry["trick"]}
    chance = {"best": percent(entry["best_value"]), "played": percent(entry["played_value"])}
    return {
        "verdict_words": _(_VERDICTS[entry["verdict"]][0]),
        "place": _("Round %(round)s, trick %(trick)s") % place,
        "words": reason_words(entry),
        "chance": _("To win the race: %(best)s with the better move, %(played)s with yours.")
        % chance,
    }


def graph_words(values: list[float], mistakes: int) -> str:
    """The graph's description for a screen reader."""
    if not values:
        return _("No decisions.")
    text = _(
        "From %(first)s after your first decision to %(last)s after your last; lowest %(low)s."
    ) % {"first": percent(values[0]), "last": percent(values[-1]), "low": percent(min(values))}
    if mistakes:
        marked = ngettext(
            "The %(num)s mistake is marked.", "The %(num)s mistakes are marked.", mistakes
        )
        text += " " + marked % {"num": mistakes}
    return text


def par_words(par: dict[str, Any] | None) -> str | None:
    """The player's result (``yours``) beside the hard bot's in their seat on the same deal,
    once the ``par`` race is kept."""
    if par is None:
        return None
    yours = par["yours"]
    return _(
        "You finished %(yours)s (%(your_result)s); the hard bot in your seat finished "
        "%(par)s on this deal (%(par_result)s)."
    ) % {
        "yours": ordinal(yours["place"]),
        "your_result": _laps_and_tricks(yours),
        "par": ordinal(par["place"]),
        "par_result": _laps_and_tricks(par),
    }


def _laps_and_tricks(result: dict[str, Any]) -> str:
    lap_count, trick_count = result["laps"], result["tricks"]
    laps = ngettext("%(num)s lap", "%(num)s laps", lap_count) % {"num": lap_count}
    tricks = ngettext("%(num)s trick", "%(num)s tricks", trick_count) % {"num": trick_count}
    return _("%(laps)s, %(tricks)s") % {"laps": laps, "tricks": tricks}


def with_reasons(review: dict[str, Any]) -> dict[str, Any]:
    return {**review, "decisions": [{**d, "reason": reason_words(d)} for d in review["decisions"]]}
