"""A race saved as its deal and its moves is the race the three saved histories gave.

Differential testing against an oracle: the record as it was before format 3 (the game
saved whole with :meth:`engine.Game.to_dict`, the public log packed by the old
:class:`EventLog` kept unchanged in ``tests/engine/oracle/old_event_log.py``, and the moves
as the old comma-separated strings of ``tests/record_kit.py``) plays seeded random races
side by side with :class:`~app.races.record.GameSession`, whose game and log are derived
from its moves.
Each move goes through a save and a load on both sides, as a store's request does; every
few moves the new side's cache of derived races is emptied, so the load replays the race
from its deal. After every move: the saved game, the legal set, the events, every seat's
view and the public view are equal; at the end the winner, and every earlier position
derived from a cut of the moves (a take-back's truncation) is the oracle's at that point.
Every player count, every variant combination, the lesson's fixed deal and set-up deals.
The big run (10,080 races) is marked ``slow``; a smaller one always runs.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from game_kit import differential_race
from oracle import old_event_log
from record_kit import old_pack_move, old_unpack_move

from app.races import lesson
from app.races.record import (
    DERIVED,
    GameConfig,
    GameSession,
    decode_move,
    encode_move,
    new_session,
)
from app.settings import Settings
from engine import Action, Game, Variants, new_game, observe, observe_public
from engine.rng import Rng

RACES = 10_080  # 3 player counts x 8 variant combinations x 420 deals
QUICK_RACES = 72  # 3 x 8 x 3, always run
REPLAY_EVERY = 8
"""Every eighth load replays the whole race (the cache emptied first)."""
KINDS = ("person", "autopilot", "bot")
SETTINGS = Settings(seed_secret="record-differential")


class OldRecord:
    """The oracle: a race saved the format-2 way (game, packed log, packed moves)."""

    def __init__(self, game: Game) -> None:
        self.game = game.to_dict()
        self.log = old_event_log.EventLog([game.deal_event()]).to_packed()
        self.moves: list[str] = []

    def play(self, kind: str, seat: int, action: Action) -> None:
        """Load, apply, save: what a request did to a format-2 record."""
        game = Game.from_dict(self.game)
        log = old_event_log.EventLog.from_packed(self.log)
        log.extend(game.apply(action, seat=seat))
        self.moves.append(old_pack_move(kind, seat, action))
        self.game, self.log = game.to_dict(), log.to_packed()

    def events(self, start: int) -> list[dict[str, Any]]:
        return old_event_log.EventLog.from_packed(self.log).dicts(start)


def _session(index: int, players: int, variants: Variants) -> GameSession:
    """Race ``index``'s session: mostly a seed's deal, every 23rd the lesson, every 17th a
    set-up deal (a start that is not its seed's)."""
    if index % 23 == 11:
        config = GameConfig(players=lesson.LESSON_PLAYERS, lesson=True)
        return new_session(config, SETTINGS)
    session = new_session(GameConfig(players=players, variants=variants, seed=index), SETTINGS)
    if index % 17 == 5:
        session.start = new_game(players=players, seed=index + 1, variants=variants).to_dict()
        session.game = Game.from_dict(session.start)
        session.events = type(session.events)([session.game.deal_event()])
    return session


def _load(data: bytes, replay: bool) -> GameSession:
    if replay:
        DERIVED.clear()
    return GameSession.from_dict(orjson.loads(data))


def _same(session: GameSession, old: OldRecord, full: bool, seen: int) -> None:
    """The derived race is the oracle's: state, legal set, the events from index ``seen``
    on (all of them when ``full``), the current seat's view (every seat's when ``full``),
    the public view, the winner."""
    game, reference = session.game, Game.from_dict(old.game)
    assert game.to_dict() == old.game
    assert game.legal_actions() == reference.legal_actions()
    start = 0 if full else seen
    assert session.events.dicts(start) == old.events(start)
    current = game.current_seat
    for seat in range(game.players):
        if full or seat == current:
            assert observe(game, seat) == observe(reference, seat)
    assert observe_public(game) == observe_public(reference)
    assert game.winner == reference.winner


def _play(index: int, players: int, variants: Variants) -> int:
    """Play race ``index`` on both records, comparing after every move; its length."""
    session = _session(index, players, variants)
    old = OldRecord(session.game)
    data = orjson.dumps(session.to_dict())
    positions = [old.game]
    rng = Rng(index)
    moves = seen = 0
    while True:
        replay = moves % REPLAY_EVERY == 0
        session = _load(data, replay)
        _same(session, old, replay or session.game.is_over, seen)
        seen = len(session.events)
        if session.game.is_over:
            break
        legal = session.game.legal_actions()
        action = Action.from_dict(legal[rng.below(len(legal))].to_dict())
        seat = session.game.current_seat
        assert seat is not None
        kind = KINDS[rng.below(len(KINDS))]
        session.record_events(session.game.apply(action, seat=seat))
        session.record_action(seat, action, kind)
        old.play(kind, seat, action)
        assert decode_move(session.moves[-1]) == old_unpack_move(old.moves[-1])
        data = orjson.dumps(session.to_dict())
        positions.append(old.game)
        moves += 1
    saved = orjson.loads(data)
    assert not {"game", "log", "events"} & set(saved)
    assert [encode_move(*old_unpack_move(m)) for m in old.moves] == saved["moves"]
    cut = rng.below(moves)  # a take-back's truncation, derived from the deal
    DERIVED.clear()
    earlier = GameSession.from_dict({**saved, "moves": saved["moves"][:cut]})
    assert earlier.game.to_dict() == positions[cut]
    return moves


def _run(races: int) -> int:
    moves = 0
    for index in range(races):
        moves += _play(index, *differential_race(index))
    return moves


@pytest.mark.slow
@pytest.mark.timeout(5400)  # tens of ms a race: minutes, more on a busy machine
def test_the_record_agrees_with_the_three_histories_over_10000_races() -> None:
    assert _run(RACES) > RACES * 50  # the races really were played


def test_the_record_agrees_with_the_three_histories_over_a_few_hundred_races() -> None:
    assert _run(QUICK_RACES) > QUICK_RACES * 50
