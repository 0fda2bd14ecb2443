"""Finished races' public records, revealed, for the deal checker's tests (engine, CLI,
``/fair``): the fields ``engine.verify`` reads, in the format of
``GET /api/games/{id}/record`` once a race is over.

:func:`played_record` plays a whole race with the engine's bots; :func:`revealed_record`
completes a finished server race's record with what its end reveals (``deal_seed``,
``salt``, ``actions``) from the stored session, for a branch where the record does not
carry them yet: fields the record already has are kept as they are.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from app.races.record import GameSession, decode_move
from engine import MAX_DECISIONS, EventLog, Variants, new_game
from engine.bots import make_bot
from engine.fairness import commit


def played_record(
    players: int,
    variants: Variants,
    deal_seed: int,
    *,
    salt: str | None = None,
    bots: str = "random",
    bot_seed: int = 0,
) -> dict[str, Any]:
    """A finished race dealt from ``deal_seed``, every seat played by a ``bots`` bot, as
    its public record after the end (through JSON, as a reader gets it)."""
    salt = secrets.token_hex(16) if salt is None else salt
    game = new_game(players=players, seed=deal_seed, variants=variants)
    log = EventLog([game.deal_event()])
    seats = [make_bot(bots, bot_seed * 10 + seat) for seat in range(players)]
    actions: list[dict[str, Any]] = []
    for _ in range(MAX_DECISIONS):
        if game.is_over:
            break
        seat = game.current_seat
        action = seats[seat].choose(game.observation(seat))
        log.extend(game.apply(action, seat=seat))
        actions.append({"seat": seat, "action": action.to_dict()})
    assert game.is_over
    record = {
        "game_id": f"test-{deal_seed}",
        "complete": True,
        "settings": {"players": players, "bots": bots, "variants": variants.to_dict()},
        "practice": False,
        "seed": None,
        "winner": game.winner,
        "turn": len(actions),
        "events": log.dicts(),
        "commitment": commit(deal_seed, salt),
        "deal_seed": deal_seed,
        "salt": salt,
        "actions": actions,
    }
    loaded: dict[str, Any] = json.loads(json.dumps(record))
    return loaded


def revealed_record(record: dict[str, Any], session: GameSession, salt: str) -> dict[str, Any]:
    """``record`` (a finished race's, from the API) with the deal's reveal filled in from
    ``session`` where the record lacks it: the seed it was dealt from, ``salt`` and its
    commitment, and every action in order."""
    moves = [decode_move(code) for code in session.moves]
    reveal = {
        "commitment": commit(session.engine_seed, salt),
        "deal_seed": session.engine_seed,
        "salt": salt,
        "actions": [{"seat": seat, "action": action.to_dict()} for _, seat, action in moves],
    }
    return {**reveal, **{k: v for k, v in record.items() if v is not None or k not in reveal}}
