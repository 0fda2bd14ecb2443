"""The knobs of the rule-of-thumb player (:func:`engine.bots.policy.choose_id`).

Every legal action gets a score in "gas units": the chance of winning the trick times
what the trick is worth (speed for tricks 1–5, a lap — or the game — for the sixth),
minus the gas it burns, plus the gas it brings in (the 2, the 0, a Tune-Up share, the
0/5 card), minus the worth of the card it uses up. The chance of winning assumes each
later seat holds random cards from those this seat has not seen (card counting), may
spend part of its gas (all of it on the sixth trick) and may strike 4s and 5s with a 1.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Style:
    """The knobs of the heuristic, the normal bot's by default: ``early_commit``,
    ``willing``, ``later_tuners`` and ``keep_value`` tuned by duplicate self-play (1,200
    games per setting), the others at a flat optimum."""

    #: Worth of the sixth trick's lap, and of the lap that wins the game (gas units).
    lap_value: float = 10.0
    win_value: float = 30.0
    #: Extra worth of the sixth trick when an opponent on one lap could otherwise win.
    deny_value: float = 8.0
    #: Worth of one point of speed for each trick still to come this round.
    speed_value: float = 0.7
    #: Worth of one gas in the tank.
    gas_value: float = 1.0
    #: Worth of keeping a card for later tricks, by printed value 0..5.
    keep_value: tuple[float, ...] = (0.3, 0.5, 0.3, 0.4, 0.6, 0.9)
    #: Worth of keeping the 0/5 card for later.
    zero_five_keep: float = 1.0
    #: Gas a later seat is assumed willing to add in tricks 1–5 (all of it in trick 6).
    early_commit: int = 3
    #: Chance a later seat that can beat a card actually does.
    willing: float = 0.65
    #: Expected share of later seats that tune up too (dilutes a Tune-Up share).
    later_tuners: float = 0.6
    #: Whether this round's face-up cards are removed from the unseen pool.
    count_cards: bool = True
    #: Softmax temperature over sensible actions; 0 picks the best score.
    temperature: float = 0.0


NORMAL = Style()  # the normal bot: counts cards, no noise

EASY = Style(
    count_cards=False,
    deny_value=0.0,
    early_commit=1,
    willing=0.7,
    later_tuners=0.3,
    keep_value=(0.5, 0.8, 0.5, 0.6, 1.0, 1.5),
    temperature=1.2,
)
"""The easy bot: forgets the cards already played, underrates what later seats will do,
keeps its high cards too long, and picks among sensible moves with softmax noise."""
