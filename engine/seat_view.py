"""The one builder of a seat's view (boardgame.io's ``playerView``): :meth:`SeatView.of`.

Everything a page, an API response or a bot learns about a race passes through it: the
seat's own hand, the public numbers and the face-up cards. A Tune Up keeps only its back,
the 0/5 card loses its discard; other hands, the deck order and the generator never
appear. :meth:`SeatView.to_dict` is its JSON form (:class:`engine.shapes.Observation`),
:meth:`SeatView.from_observation` reads that back.

>>> from engine import new_game
>>> game = new_game(players=3, seed=2)
>>> view = SeatView.of(game.core, 1)
>>> sum(view.hand), view.hand_sizes, view.legal == ()
(6, (6, 6, 6), False)
>>> SeatView.from_observation(view.to_dict()) == view
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol, cast

from engine.cards import effective_value
from engine.shapes import Leader, Observation, PublicObservation, TableView
from engine.sim import (
    ACTIONS,
    FIELDS_ID,
    INFO,
    MASKED,
    PLAY,
    PLAY_ACTION,
    SUIT_IDS,
    SUIT_INDEX,
    SUITS,
    TUNE_UP,
    CoreTrick,
    PublicTrick,
    SimState,
    core_trick,
    deck_facts,
    face_up_counts,
    lichen_in,
    play_key,
    public_play,
    trick_record,
)
from engine.variants import Variants

if TYPE_CHECKING:
    from engine.actions import Action

PublicCard = tuple[int, int, int]
"""A card in a trick as every seat sees it: (seat, action id, speed), the action id the
first that shows the same (:data:`engine.sim.MASKED`): a Tune Up keeps only its back and
no speed, the 0/5 card not its discard."""

_ZEROS = (0,) * SUITS
# Every Tune Up as a view keeps it: the first of them.
_TUNED_UP = next(a for a, info in enumerate(INFO) if info[0] == TUNE_UP)


class HasCore(Protocol):
    """What :func:`observe` reads of a game (:class:`engine.game.Game`)."""

    def view(self, seat: int | None) -> SeatView:
        """``seat``'s view (:meth:`SeatView.of`)."""


def mask_cards(plays: Sequence[tuple[int, int, int]]) -> tuple[PublicCard, ...]:
    """The public form of the core's cards of a trick (a Tune Up's speed left out: 0)."""
    public, tuned = MASKED, _TUNED_UP
    return tuple([(s, public[a], 0 if public[a] == tuned else speed) for s, a, speed in plays])


def public_trick(record: CoreTrick) -> PublicTrick:
    """The public form of one of the core's finished-trick records."""
    trick, lead, plays, winner, lichen = record
    return (trick, lead, mask_cards(plays), winner, lichen)


class SeatView(NamedTuple):
    """What one seat (or, with ``seat`` None, a spectator) may know of a race, as data:
    cards counted per suit index (:data:`engine.cards.SUIT_ORDER`), the cards of tricks as
    :data:`PublicCard` tuples."""

    seat: int | None
    players: int
    variants: Variants
    #: The seat's own cards, counted per suit index (all zero for a spectator).
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    gas: tuple[int, ...]
    speed: tuple[int, ...]
    laps: tuple[int, ...]
    #: Who still holds the 0/5 card (all False when the variant is off).
    zero_five: tuple[bool, ...]
    middle: int
    removed: int
    round: int
    trick: int
    lead: int
    #: The seat to act, None once the race is over.
    current: int | None
    winner: int | None
    trick_plays: tuple[PublicCard, ...]
    round_tricks: tuple[PublicTrick, ...]
    last_trick: PublicTrick | None
    #: Cards face up this round (finished tricks and the current one), per suit index.
    face_up: tuple[int, ...]
    #: How many cards lie aside unseen this round (Larger Hands, R18).
    set_aside: int
    #: The seat's legal action ids (:data:`engine.sim.ACTIONS`); empty unless it is to act.
    legal: tuple[int, ...]

    @classmethod
    def of(
        cls,
        core: SimState,
        seat: int | None,
        legal: tuple[int, ...] | None = None,
        tricks: tuple[tuple[PublicTrick, ...], PublicTrick | None] | None = None,
        sizes: tuple[int, ...] | None = None,
    ) -> SeatView:
        """``seat``'s view of the race ``core`` holds (a spectator's when ``seat`` is None);
        a caller that knows the legal ids, the tricks' public forms or the hand sizes may
        pass them in.

        >>> from engine import new_game
        >>> view = SeatView.of(new_game(players=3, seed=2).core, None)
        >>> sum(view.hand), view.legal, view.current is not None
        (0, (), True)
        """
        players = core.players
        if seat is not None and (type(seat) is not int or not 0 <= seat < players):
            raise ValueError(f"There is no seat {seat!r} in this race.")
        over = core.winner >= 0
        current = None if over else core.turn
        if seat is None or seat != current:
            legal = ()
        elif legal is None:
            legal = core.legal()
        if tricks is None:
            last = core.last
            tricks = tuple(map(public_trick, core.tricks)), last and public_trick(last)
        zero_five = core.zero_five if core.zf_variant else (False,) * players
        return tuple.__new__(
            cls,
            (
                seat,
                players,
                core.variants,
                _ZEROS if seat is None else tuple(core.hands[seat]),
                tuple(map(sum, core.hands)) if sizes is None else sizes,
                tuple(core.gas),
                tuple(core.speed),
                tuple(core.laps),
                tuple(zero_five),
                core.middle,
                core.removed,
                core.round,
                core.trick,
                core.lead,
                current,
                core.winner if over else None,
                mask_cards(core.plays),
                tricks[0],
                tricks[1],
                tuple(core.face_up),
                len(core.set_aside),
                legal,
            ),
        )

    def legal_actions(self) -> list[Action]:
        """The legal actions, as :class:`~engine.actions.Action` objects (shared ones)."""
        return [ACTIONS[i] for i in self.legal]

    def to_dict(self) -> Observation | PublicObservation:
        """The JSON form (:class:`engine.shapes.Observation`, a spectator's
        :class:`engine.shapes.PublicObservation`), fresh dicts and lists throughout."""
        return cast("Observation | PublicObservation", {"seat": self.seat, **self._table()})

    def _table(self) -> TableView:
        lichen = lichen_in(self.trick_plays)
        plays = [public_play(s, a, sp, lichen) for s, a, sp in self.trick_plays]
        seat, players, suit_id, forms = self.seat, self.players, SUIT_IDS, _FORMS
        gas, speed, laps = self.gas, self.speed, self.laps
        sizes, flags, last = self.hand_sizes, self.zero_five, self.last_trick
        _, _, variants, deck = deck_facts(players, self.variants)
        return {
            "players_count": players,
            "variants": variants.copy(),
            "hand": [suit_id[i] for i, n in enumerate(self.hand) for _ in range(n)],
            "zero_five_available": seat is not None and flags[seat],
            "players": [
                {
                    "seat": s,
                    "gas": gas[s],
                    "speed": speed[s],
                    "laps": laps[s],
                    "hand_size": sizes[s],
                    "zero_five_available": flags[s],
                }
                for s in range(players)
            ],
            "middle": self.middle,
            "removed": self.removed,
            "round": self.round,
            "trick": self.trick,
            "lead": self.lead,
            "current_seat": self.current,
            "game_over": self.current is None,
            "winner": self.winner,
            "trick_plays": plays,
            "blocked_suits": [
                suit_id[INFO[a][1]] for _, a, _ in self.trick_plays if INFO[a][0] == PLAY
            ],
            "best": leader(self.trick_plays, lichen),
            "round_tricks": [trick_record(trick) for trick in self.round_tricks],
            "last_trick": None if last is None else trick_record(last),
            "deck": {"size": deck["size"], "copies": deck["copies"].copy()},
            "set_aside": self.set_aside,
            "legal_actions": [forms[i].copy() for i in self.legal],
        }

    @classmethod
    def from_observation(cls, observation: Observation | PublicObservation) -> SeatView:
        """The view whose JSON form is ``observation`` (``ValueError`` or ``KeyError`` for
        a form no view could have produced)."""
        players = observation["players"]
        variants = Variants.from_dict(observation["variants"])
        hand = [0] * SUITS
        for card in observation["hand"]:
            hand[SUIT_INDEX[card]] += 1
        trick_plays = tuple(
            (p["seat"], PLAY_ACTION[play_key(p)], p["speed"] or 0)
            for p in observation["trick_plays"]
        )
        tricks = tuple(map(core_trick, observation["round_tricks"]))
        last = observation["last_trick"]
        seat = observation["seat"]
        current = observation["current_seat"]
        legal: tuple[int, ...] = ()
        if seat is not None and seat == current:
            index = FIELDS_ID
            legal = tuple(
                index[(f["type"], f["suit"], f["gas"], f["zero_effect"], f["value"], f["discard"])]
                for f in observation["legal_actions"]
            )
        return cls(
            seat,
            observation["players_count"],
            variants,
            tuple(hand),
            tuple(p["hand_size"] for p in players),
            tuple(p["gas"] for p in players),
            tuple(p["speed"] for p in players),
            tuple(p["laps"] for p in players),
            tuple(p["zero_five_available"] for p in players),
            observation["middle"],
            observation["removed"],
            observation["round"],
            observation["trick"],
            observation["lead"],
            current,
            observation["winner"],
            trick_plays,
            tricks,
            None if last is None else core_trick(last),
            tuple(face_up_counts(tricks, trick_plays)),
            observation["set_aside"],
            legal,
        )


# The JSON form of each action id (a view copies the ones it lists).
_FORMS = tuple(action.to_dict() for action in ACTIONS)


def leader(cards: tuple[PublicCard, ...], lichen: bool) -> Leader | None:
    """The card leading ``cards`` with (or without) a 1 face up: the highest final
    number, the earlier card on a tie (R13); None while every card is face down."""
    best: Leader | None = None
    for seat, a, speed in cards:
        kind, _, gas, value, _ = INFO[a]
        if kind != TUNE_UP:
            final = effective_value(value, lichen) + gas + speed
            if best is None or final > best["final"]:
                best = {"seat": seat, "final": final}
    return best


def observe(game: HasCore, seat: int) -> Observation:
    """``seat``'s view of ``game`` as JSON (:meth:`SeatView.to_dict`).

    >>> from engine import new_game
    >>> view = observe(new_game(players=3, seed=2), 1)
    >>> len(view["hand"]), "hands" in view, view["players"][0]["hand_size"]
    (6, False, 6)
    """
    if seat is None:  # a seat's view: a spectator's is observe_public's
        raise ValueError("There is no seat None in this race.")
    return game.view(seat).to_dict()  # type: ignore[return-value]


def observe_public(game: HasCore) -> PublicObservation:
    """A spectator's view of ``game``: what every seat sees, no hand and no move.

    >>> from engine import new_game
    >>> view = observe_public(new_game(players=3, seed=2))
    >>> view["seat"], view["hand"], view["legal_actions"], view["players"][0]["hand_size"]
    (None, [], [], 6)
    """
    return game.view(None).to_dict()  # type: ignore[return-value]
