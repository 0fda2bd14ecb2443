"""A review's best move and the ties among candidates, as the review shows its values (to
``review.SHOWN_DIGITS`` places): a move as good as the best there is the best, so a loss
shown as 0 never comes with another move named best."""

from __future__ import annotations

from app.races import review
from app.races.review import Estimate
from engine import Action, Suit

PLAYED = Action.tune_up(Suit.JELLY)
OTHER = Action.tune_up(Suit.LICHEN)


def test_the_move_played_is_best_when_it_ties_the_top_to_the_places_shown() -> None:
    step = 10.0**-review.SHOWN_DIGITS
    nearly = [Estimate(OTHER, 0.41237), Estimate(PLAYED, 0.41236)]  # both 0.4124 shown
    assert review.best_of(nearly, PLAYED).action == PLAYED
    behind = [Estimate(OTHER, 0.41237), Estimate(PLAYED, 0.41237 - 2 * step)]
    assert review.best_of(behind, PLAYED).action == OTHER
    # Without a move played the first of the highest is best, however close the rest.
    assert review.best_of(nearly).action == OTHER
