"""The per-process cache of derived races (app.races.record.DerivedCache): a load takes on
the last copy of a race only when the loaded moves begin with its moves on the same deal,
replays the rest, and hands out copies; at most its limit of races are kept."""

from __future__ import annotations

import random
from typing import Any

from app.races.record import (
    DerivedCache,
    GameConfig,
    GameSession,
    new_session,
    replay_moves,
)
from app.settings import Settings
from engine import EventLog


def _race(moves: int, seed: int = 4) -> GameSession:
    session = new_session(GameConfig(players=4, seed=seed), Settings(seed_secret="cache"))
    rng = random.Random(seed)
    for _ in range(moves):
        game = session.game
        seat = game.current_seat
        assert seat is not None
        action = rng.choice(game.legal_actions())
        session.record_events(game.apply(action, seat=seat))
        session.record_action(seat, action, "bot")
    return session


def _whole(session: GameSession, moves: list[int]) -> tuple[dict[str, Any], EventLog]:
    """What ``moves`` give from the race's deal, replayed without any cache."""
    game = session.dealt()
    events = EventLog([game.deal_event()])
    replay_moves(game, events, moves)
    return game.to_dict(), events


def _derive(cache: DerivedCache, session: GameSession, moves: list[int]) -> Any:
    return cache.derive(session.id, (session.config, session.engine_seed, session.start), moves)


def test_a_kept_race_is_taken_on_and_only_the_new_moves_replayed() -> None:
    session = _race(12)
    cache = DerivedCache(4)
    earlier = session.moves[:8]
    game, _ = _derive(cache, session, earlier)  # replays 8 moves, keeps a copy
    game.apply(game.legal_actions()[0])  # the caller's copy: the cache's is untouched
    again, again_events = _derive(cache, session, session.moves)
    assert (again.to_dict(), again_events) == _whole(session, session.moves)
    assert again.to_dict() == session.game.to_dict() and again_events == session.events


def test_moves_that_do_not_continue_the_kept_ones_are_replayed_from_the_deal() -> None:
    session = _race(12)
    cache = DerivedCache(4)
    _derive(cache, session, session.moves)
    cut = session.moves[:5]  # a take-back
    game, events = _derive(cache, session, cut)
    assert (game.to_dict(), events) == _whole(session, cut)
    other = _race(12, seed=5)  # another deal under the same id is not taken on
    other.id = session.id
    game, events = _derive(cache, other, other.moves[:3])
    assert (game.to_dict(), events) == _whole(other, other.moves[:3])


def test_the_cache_keeps_at_most_its_limit_the_least_recently_used_dropped() -> None:
    cache = DerivedCache(2)
    races = [_race(3, seed) for seed in (1, 2, 3)]
    for number, race in enumerate(races):
        race.id = f"race-{number}"
        cache.keep(race)
    assert cache.ids() == ["race-1", "race-2"]
    _derive(cache, races[1], races[1].moves)  # used again: race-2 is now the oldest
    cache.keep(races[0])
    assert cache.ids() == ["race-1", "race-0"]
