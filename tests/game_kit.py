"""The shared game kit of the tests: explicit deals, seeded random play, and the hidden-card
reshuffle behind every "nothing depends on hidden cards" check.

Imported as ``game_kit`` (``tests/`` is on the import path through its conftest). It holds
no assertion about the rules: each rule check lives in a test that names its rule id.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from engine import MAX_DECISIONS, Action, Event, Game, SeatView, Suit, Variants, new_game
from engine.bots.heuristic import NORMAL, Style
from engine.bots.rollout import rollout_seats
from engine.cards import RACER_SUITS, SUIT_ORDER
from engine.rng import Rng
from engine.sim import SimState

VARIANT_COMBOS: tuple[Variants, ...] = tuple(
    Variants(larger_hands=larger, zero_suit=Suit.CHIPPY if zero else None, zero_five=zero_five)
    for larger, zero, zero_five in itertools.product((False, True), repeat=3)
)
"""Every combination of the three variants (R18–R22), the 0 suit replacing chippy."""


def variant_label(variants: Variants) -> str:
    """A short test id for a variant set: ``base``, ``lh+zero+05``, ...

    >>> variant_label(VARIANT_COMBOS[0]), variant_label(VARIANT_COMBOS[-1])
    ('base', 'lh+zero+05')
    """
    parts = [
        name
        for name, on in (
            ("lh", variants.larger_hands),
            ("zero", variants.zero),
            ("05", variants.zero_five),
        )
        if on
    ]
    return "+".join(parts) or "base"


def cycled_variants(index: int) -> Variants:
    """The ``index``-th variant set of a long sweep: bits 0-2 switch the three variants on,
    and the 0 suit takes each racer suit's place in turn, a new one every eight."""
    larger, zero, zero_five = ((index >> bit) & 1 for bit in range(3))
    return Variants(
        larger_hands=bool(larger),
        zero_suit=RACER_SUITS[(index // 8) % len(RACER_SUITS)] if zero else None,
        zero_five=bool(zero_five),
    )


def differential_race(index: int) -> tuple[int, Variants]:
    """Players and variants of race ``index`` of a differential run: every player count
    (3-5) with every variant combination in turn, the 0 suit changing each full cycle."""
    players, combo = divmod(index % 24, 8)
    return players + 3, cycled_variants(combo + 8 * (index // 24))


# ---------------------------------------------------------------- dealing


def deal(
    players: int,
    hands: Sequence[Sequence[str]],
    *,
    lead: int = 0,
    seed: int = 1,
    **kwargs: Any,
) -> Game:
    """An explicit position (``new_game`` with ``hands``), lead 0 and seed 1 unless given."""
    return new_game(players=players, seed=seed, hands=hands, lead=lead, **kwargs)


_ORDER = {suit.value: i for i, suit in enumerate(SUIT_ORDER)}


def canonical(state: dict[str, Any]) -> dict[str, Any]:
    """A saved game (``Game.to_dict``, or the oracle's) with every hand in ``SUIT_ORDER``
    order: two states are the same game exactly when their canonical forms are equal.

    >>> canonical({"hands": [["slippy", "zero", "lichen"]], "round": 2})
    {'hands': [['zero', 'lichen', 'slippy']], 'round': 2}
    """
    hands = [sorted(hand, key=_ORDER.__getitem__) for hand in state["hands"]]
    return {**state, "hands": hands}


def cards_in_play(game: Game | dict[str, Any]) -> Counter[str]:
    """Every physical card the state holds: hands, trick, discards and set-aside (R12, R18);
    of a game or of its saved state (``to_dict()``, when the caller has it already)."""
    state = game if isinstance(game, dict) else game.to_dict()
    cards: Counter[str] = Counter()
    for hand in state["hands"]:
        cards.update(hand)
    cards.update(p["card"] for p in state["plays"] if p["card"] is not None)
    cards.update(state["discards"])
    cards.update(state["set_aside"])
    return cards


def deck_of(game: Game) -> Counter[str]:
    """The variant deck of ``game`` as a multiset of suit ids."""
    return Counter(card.value for card in game.core.variants.deck(game.players))


# ---------------------------------------------------------------- random play


def random_action(game: Game, rng: Rng) -> Action:
    """A legal action of the current seat, uniformly at random."""
    actions = game.legal_actions()
    return actions[rng.below(len(actions))]


def view_after(plays: int, *, seed: int, players: int = 4) -> SeatView:
    """The view of the seat to move after the first ``plays`` decisions of a seeded race,
    each the first legal action (a few plays in, the seat has a trick to read)."""
    game = new_game(players=players, seed=seed)
    for _ in range(plays):
        game.apply(game.legal_actions()[0], game.current_seat)
    seat = game.current_seat
    assert seat is not None, "the race ended within the plays asked for"
    return game.view(seat)


def random_turns(game: Game, rng: Rng, limit: int = MAX_DECISIONS) -> Iterator[Game]:
    """Yield ``game`` itself at each decision point, then play a uniformly random legal
    action, until the game is over (the caller may look but not move in between)."""
    for _ in range(limit):
        if game.is_over:
            return
        yield game
        game.apply(random_action(game, rng))
    raise AssertionError(f"game not over after {limit} turns")


def random_playout(
    game: Game, rng: Rng, limit: int = MAX_DECISIONS
) -> Iterator[tuple[Action, list[Event]]]:
    """Play uniformly random legal actions until the game ends, yielding each turn."""
    for _ in range(limit):
        if game.is_over:
            return
        action = random_action(game, rng)
        yield action, game.apply(action)
    raise AssertionError(f"game not over after {limit} turns")


def random_positions(
    players: int, variants: Variants, seed: int, count: int, stride: int = 1
) -> Iterator[Game]:
    """Yield ``count`` positions met while random play runs through seeded games.

    Every ``stride``-th decision point is yielded (the game itself, not a copy: callers
    must not mutate it). Every other game starts with random laps (0 or 1 each) so that
    the 0/5 card's value 5 and the game-winning lap come up too.
    """
    rng = Rng(seed)
    yielded = decision = game_no = 0
    while yielded < count:
        laps = [rng.below(2) for _ in range(players)] if game_no % 2 else None
        game = new_game(players=players, seed=seed * 1000 + game_no, variants=variants, laps=laps)
        game_no += 1
        while not game.is_over and yielded < count:
            if decision % stride == 0:
                yield game
                yielded += 1
            decision += 1
            game.apply(random_action(game, rng))


# ---------------------------------------------------------------- hidden cards


class Shuffler(Protocol):
    """Anything that shuffles a list in place: :class:`engine.rng.Rng` or ``random.Random``."""

    def shuffle(self, items: list[Any], /) -> None:
        """Shuffle ``items`` in place."""


def reshuffle_hidden(game: Game, observer: int, rng: Shuffler, *, reseed: bool = False) -> Game:
    """The same game with every card ``observer`` cannot see permuted among the hidden
    places: the other hands, the face-down cards of the trick, the discards and the
    set-aside cards. With ``reseed`` the seed and the generator of later deals change too.

    Everything ``observer`` may know is untouched, so any view, page or response built for
    that seat must come out the same for both games.
    """
    state = json.loads(json.dumps(game.to_dict()))
    slots: list[tuple[list[Any], int, str | None]] = []
    for seat, hand in enumerate(state["hands"]):
        if seat != observer:
            slots.extend((hand, i, None) for i in range(len(hand)))
    for index, play in enumerate(state["plays"]):
        if play["type"] == "tune_up":
            slots.append((state["plays"], index, "card"))
    for where in ("discards", "set_aside"):
        slots.extend((state[where], i, None) for i in range(len(state[where])))
    values = [container[i] if key is None else container[i][key] for container, i, key in slots]
    rng.shuffle(values)
    for (container, index, key), value in zip(slots, values, strict=True):
        if key is None:
            container[index] = value
        else:
            container[index][key] = value
    if reseed:
        state["rng"] = (state["rng"] * 6364136223846793005 + 1) % 2**64
        state["seed"] += 1
    return Game.from_dict(state)


def hidden_twin(game: Game, observer: int, rng: Shuffler, tries: int = 50) -> Game | None:
    """A :func:`reshuffle_hidden` of ``game`` whose hidden cards really moved, or ``None``
    when no shuffle moves any (every hidden card alike) within ``tries``."""
    for _ in range(tries):
        twin = reshuffle_hidden(game, observer, rng)
        if twin != game:
            return twin
    return None


def rollout(
    s: SimState,
    rng: Rng,
    style: Style = NORMAL,
    others: Style | None = None,
    seat: int = -1,
    deal: bool = True,
) -> list[float]:
    """:func:`engine.bots.rollout.rollout_seats` with ``seat`` playing ``style`` and the
    others ``others`` (by default ``style`` too)."""
    other = style if others is None else others
    return rollout_seats(s, rng, [style if i == seat else other for i in range(s.players)], deal)
