"""The results store on SQLite and on a real PostgreSQL, with the same expectations: the
migrations from empty (through the ``alembic`` command) build exactly the models, a
finished race is recorded once and rates its people (not in practice), history, the
record per bot level and the leaderboard read back what was written."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from app_kit import await_until, bare_session
from sqlalchemy import text

from app.races.record import GameSession
from app.results.cup import CupResults, DealResult
from app.results.daily import BoardEntry, DailyResults
from app.results.database import async_url, connect
from app.results.errors import ResultsUnavailable
from app.results.models import METADATA
from app.results.ratings import BOT_RATINGS, Rating, rate
from app.results.recorder import Recorder
from app.results.store import Finish, LevelRecord, ResultsStore, SeatResult, pseudonym
from app.storage.sqlite import MemoryStore
from bench.daily_board import board_key
from bench.server import find_free_port
from engine import new_game

REPO = Path(__file__).resolve().parent.parent
START = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def finish(
    game_id: str,
    people: list[tuple[int, int]],
    *,
    bots: str = "easy",
    practice: bool = False,
    minutes: int = 0,
    players: int = 3,
) -> Finish:
    """A finished race: ``people`` are (player id, place); bots of ``bots`` take the rest
    of the places in seat order."""
    taken = {place for _, place in people}
    free = iter(p for p in range(1, players + 1) if p not in taken)
    seats = [
        SeatResult(i, f"P{i}", place, 2 if place == 1 else 1, 3, 4, player_id=pid)
        for i, (pid, place) in enumerate(people)
    ]
    for seat in range(len(people), players):
        seats.append(SeatResult(seat, f"Bot {seat + 1}", next(free), 0, 1, 2, bot_level=bots))
    return Finish(
        game_id=game_id,
        finished_at=START + timedelta(minutes=minutes),
        players=players,
        people=len(people),
        bots=bots,
        settings={"players": players, "bots": bots},
        practice=practice,
        record={"game_id": game_id, "complete": True, "events": []},
        seats=tuple(seats),
    )


def test_alembic_upgrade_head_from_empty_builds_exactly_the_models(
    results_database: str,
) -> None:
    env = {**os.environ, "ZZV_DATABASE_URL": results_database}
    alembic = [sys.executable, "-m", "alembic", "-c", str(REPO / "app/results/alembic.ini")]
    for _ in range(2):  # the second upgrade finds nothing to do
        done = subprocess.run(
            [*alembic, "upgrade", "head"], env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr

    async def compare() -> tuple[list[Any], list[Any]]:
        engine = connect(async_url(results_database))
        try:
            async with engine.connect() as conn:
                diff = await conn.run_sync(
                    lambda sync: compare_metadata(
                        MigrationContext.configure(
                            sync, opts={"version_table": "results_alembic_version"}
                        ),
                        METADATA,
                    )
                )
                version = (
                    await conn.execute(text("SELECT version_num FROM results_alembic_version"))
                ).all()
        finally:
            await engine.dispose()
        return diff, version

    diff, version = run(compare())
    assert diff == []
    assert [tuple(row) for row in version] == [("r0007",)]  # the newest migration


def test_a_finished_race_rates_its_person_once(results_database: str) -> None:
    async def scenario() -> None:
        store = ResultsStore(async_url(results_database))
        await store.open()
        try:
            ada, token = await store.create_player("Ada")
            first = await store.record_finish(finish("g1", [(ada.id, 1)]))
            assert first is not None and set(first) == {ada.id}
            again = await store.record_finish(finish("g1", [(ada.id, 1)]))
            assert again is None  # idempotent: the same race is never counted twice
            after = await store.player_for(token)
            assert after is not None and after.races == 1
            assert after.rating.mu > Rating().mu and after.rating.sigma < Rating().sigma
            assert after.rating == first[ada.id][1]
            [entry] = await store.history(ada.id)
            assert (entry.game_id, entry.place, entry.practice) == ("g1", 1, False)
            assert entry.rating_before == 1000 and entry.rating_after == after.display
            assert entry.finished_at == START
        finally:
            await store.close()

    run(scenario())


def test_practice_is_in_the_history_but_moves_no_rating(results_database: str) -> None:
    async def scenario() -> None:
        store = ResultsStore(async_url(results_database))
        await store.open()
        try:
            ada, token = await store.create_player()
            done = await store.record_finish(finish("p1", [(ada.id, 1)], practice=True))
            assert done == {}
            after = await store.player_for(token)
            assert after is not None
            assert (after.rating, after.races) == (Rating(), 0)
            [entry] = await store.history(ada.id)
            assert entry.practice and entry.rating_before is None and entry.rating_after is None
            assert await store.level_records(ada.id) == {}  # practice is not on the record
        finally:
            await store.close()

    run(scenario())


def test_losing_to_strong_bots_costs_less_than_losing_to_weak_ones(
    results_database: str,
) -> None:
    async def scenario() -> None:
        store = ResultsStore(async_url(results_database))
        await store.open()
        try:
            one, _ = await store.create_player()
            two, _ = await store.create_player()
            to_hard = await store.record_finish(finish("h", [(one.id, 3)], bots="hard"))
            to_random = await store.record_finish(finish("r", [(two.id, 3)], bots="random"))
            assert to_hard is not None and to_random is not None
            lost_hard = Rating().mu - to_hard[one.id][1].mu
            lost_random = Rating().mu - to_random[two.id][1].mu
            assert 0 < lost_hard < lost_random
            assert BOT_RATINGS["random"].mu < BOT_RATINGS["hard"].mu
        finally:
            await store.close()

    run(scenario())


def test_two_people_in_one_race_are_rated_against_each_other(results_database: str) -> None:
    async def scenario() -> None:
        store = ResultsStore(async_url(results_database))
        await store.open()
        try:
            win, _ = await store.create_player()
            lose, _ = await store.create_player()
            done = await store.record_finish(finish("f", [(win.id, 1), (lose.id, 3)], players=4))
            assert done is not None
            assert done[win.id][1].mu > Rating().mu > done[lose.id][1].mu
            assert [e.place for e in await store.history(lose.id)] == [3]
        finally:
            await store.close()

    run(scenario())


def test_a_person_at_two_seats_of_one_race_is_rated_once_at_the_first(
    results_database: str,
) -> None:
    """One player at seats 0 and 1 (a shared screen): one rating change, from the first
    seat's place, and one more race counted; both seats' results are kept under the
    player, and the history lists the race once, at the first seat's place."""

    async def scenario() -> None:
        store = ResultsStore(async_url(results_database))
        await store.open()
        try:
            ada, token = await store.create_player()
            done = await store.record_finish(finish("two", [(ada.id, 2), (ada.id, 1)], players=4))
            assert done is not None and set(done) == {ada.id}
            before, after = done[ada.id]
            easy = BOT_RATINGS["easy"]
            assert before == Rating()
            assert after == rate([Rating(), easy, easy], [2, 3, 4])[0]  # seat 1 left out
            player = await store.player_for(token)
            assert player is not None and player.races == 1 and player.rating == after
            seats = await store.finished_seats("two")
            assert [(s.seat, s.player_id, s.place) for s in seats[:2]] == [
                (0, ada.id, 2),
                (1, ada.id, 1),
            ]
            assert [s.player_id for s in seats[2:]] == [None, None]
            assert [(e.game_id, e.place) for e in await store.history(ada.id)] == [("two", 2)]
        finally:
            await store.close()

    run(scenario())


def test_history_newest_first_and_record_per_bot_level(results_database: str) -> None:
    async def scenario() -> None:
        store = ResultsStore(async_url(results_database))
        await store.open()
        try:
            ada, _ = await store.create_player()
            other, _ = await store.create_player()
            assert await store.import_browser_record(ada.id, {"easy": LevelRecord(5, 3, 2)})
            # a second import (another tab, a replayed request) changes nothing
            assert not await store.import_browser_record(ada.id, {"easy": LevelRecord(9, 9, 9)})
            places = [1, 2, 1, 1]
            for minute, place in enumerate(places):
                await store.record_finish(finish(f"e{minute}", [(ada.id, place)], minutes=minute))
            await store.record_finish(finish("n0", [(ada.id, 1)], bots="normal", minutes=9))
            await store.record_finish(finish("x", [(other.id, 1)], minutes=10))
            # a race with a friend counts in the history, not against a bot level
            await store.record_finish(
                finish("fr", [(ada.id, 1), (other.id, 2)], minutes=11, players=4)
            )
            history = await store.history(ada.id)
            assert [e.game_id for e in history] == ["fr", "n0", "e3", "e2", "e1", "e0"]
            records = await store.level_records(ada.id)
            assert records == {
                "easy": LevelRecord(races=9, wins=6, streak=2),
                "normal": LevelRecord(races=1, wins=1, streak=1),
            }
        finally:
            await store.close()

    run(scenario())


def test_the_leaderboard_lists_only_players_who_chose_to_show(results_database: str) -> None:
    async def scenario() -> None:
        store = ResultsStore(async_url(results_database))
        await store.open()
        try:
            shy, _ = await store.create_player("Shy")
            await store.rename(shy.id, "Shy", show_on_leaderboard=False)
            ada, _ = await store.create_player()
            bob, _ = await store.create_player()
            newcomer, _ = await store.create_player()
            await store.rename(ada.id, "Ada", show_on_leaderboard=True)
            await store.rename(bob.id, None, show_on_leaderboard=True)
            await store.rename(newcomer.id, "New", show_on_leaderboard=True)
            await store.record_finish(finish("a", [(ada.id, 1)], bots="normal"))
            await store.record_finish(finish("b", [(bob.id, 2)], bots="normal"))
            await store.record_finish(finish("s", [(shy.id, 1)], bots="hard"))
            board = await store.leaderboard()
            assert [e.shown_name for e in board] == ["Ada", pseudonym(bob.id)]
            assert board[0].display > board[1].display and board[0].races == 1
        finally:
            await store.close()

    run(scenario())


def test_an_unknown_token_is_never_adopted(results_database: str) -> None:
    async def scenario() -> None:
        store = ResultsStore(async_url(results_database))
        await store.open()
        try:
            known, token = await store.identify(None)
            assert await store.identify(token) == (known, token)
            stranger, fresh = await store.identify("chosen-by-the-client")
            assert fresh != "chosen-by-the-client" and stranger.id != known.id
        finally:
            await store.close()

    run(scenario())


def test_two_stores_on_one_database_share_the_key_and_record_a_race_once(
    results_database: str,
) -> None:
    async def scenario() -> None:
        one = ResultsStore(async_url(results_database))
        two = ResultsStore(async_url(results_database))
        await one.open()
        await two.open()
        try:
            ada, token = await one.create_player()
            keys = await asyncio.gather(one.signing_key(), two.signing_key())
            assert keys[0] == keys[1] and len(keys[0]) == 32
            race = finish("same", [(ada.id, 1)])
            done = await asyncio.gather(one.record_finish(race), two.record_finish(race))
            assert sorted(d is not None for d in done) == [False, True]
            player = await two.player_for(token)
            assert player is not None and player.races == 1
        finally:
            await one.close()
            await two.close()

    run(scenario())


OPEN_ONCE = """
import asyncio, sys
from app.results.database import async_url
from app.results.store import ResultsStore

async def main():
    store = ResultsStore(async_url(sys.argv[1]))
    await store.open()
    await store.create_player()
    await store.close()

asyncio.run(main())
"""


def test_processes_starting_together_on_an_empty_database_migrate_it_once(
    results_database: str,
) -> None:
    starting = [
        subprocess.Popen(
            [sys.executable, "-c", OPEN_ONCE, results_database],
            cwd=REPO,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    errors = [process.communicate(timeout=120)[1] for process in starting]
    assert [process.returncode for process in starting] == [0, 0, 0, 0], errors

    async def players() -> int:
        store = ResultsStore(async_url(results_database))
        await store.open()
        try:
            async with store.unit() as session:
                return int(
                    (await session.execute(text("SELECT count(*) FROM players"))).scalar_one()
                )
        finally:
            await store.close()

    assert run(players()) == 4


# Names that sort differently by code point than by most languages' rules (case, accents,
# spaces and punctuation), as players may type them.
NAMES = ("Racer 1", "racer 1", "Racer 10", "Zoë", "Zoe", "zed", "Émile", "_x", "Racer-2", "ß")


def test_the_daily_board_ranks_in_the_database_as_the_documented_order_does(
    results_database: str,
) -> None:
    """Many equal results (coarse random figures), practice and other days' races mixed
    in: the board's head at several sizes, its count and each player's own result are
    those of ranking every result by docs/daily.md's order, names breaking ties."""
    rng = random.Random(20)

    async def scenario() -> None:
        store = ResultsStore(async_url(results_database))
        await store.open()
        daily = DailyResults(store)
        try:
            counted: list[BoardEntry] = []
            players = []
            for index in range(48):
                player, _ = await store.create_player(rng.choice(["Ada", "Bo", "Cy", None]))
                players.append(player.id)
                day = "2026-05-01" if index % 8 else "2026-04-30"
                game_id = f"g{index:02d}"
                assert await daily.claim(day, None, player.id, game_id, START)
                if index % 11 == 5:
                    continue  # still racing: on no board
                practice = index % 7 == 3
                figures = (
                    rng.randint(1, 3),
                    rng.randint(0, 1),
                    rng.randint(0, 2),
                    rng.randint(0, 1),
                )
                place, laps, tricks, gas = figures
                race = finish(game_id, [(player.id, place)], practice=practice)
                name = NAMES[index % len(NAMES)]
                seat = SeatResult(0, name, place, laps, tricks, gas, player.id)
                await store.record_finish(replace(race, seats=(seat, *race.seats[1:])))
                if day == "2026-05-01" and not practice:
                    counted.append(BoardEntry(0, seat.name, *figures, player.id, game_id))
            counted.sort(key=lambda e: (board_key(e), e.name, e.game_id))
            expected = []
            for position, entry in enumerate(counted):
                tied = expected and board_key(expected[-1]) == board_key(entry)
                expected.append(replace(entry, rank=expected[-1].rank if tied else position + 1))
            for limit in (1, 5, 17, 100):
                for player_id in (None, *players[::5]):
                    board = await daily.day_board("2026-05-01", player_id, limit)
                    assert board.entries == expected[:limit], limit
                    assert board.ranked == len(expected)
                    mine = next((e for e in expected if e.player_id == player_id), None)
                    assert board.mine == mine, (limit, player_id)
        finally:
            await store.close()

    run(scenario())


def test_the_daily_board_reads_no_more_rows_than_it_lists_however_many_tie(
    results_database: str,
) -> None:
    """150 equal results all rank first: a board of 100 reads 100 rows, plus the viewer's
    own when it is past them, and lists the first 100 by name."""

    async def scenario() -> None:
        store = ResultsStore(async_url(results_database))
        await store.open()
        daily = DailyResults(store)
        try:
            players = []
            for index in range(150):
                player, _ = await store.create_player(None)
                players.append(player.id)
                game_id = f"t{index:03d}"
                assert await daily.claim("2026-05-01", None, player.id, game_id, START)
                race = finish(game_id, [(player.id, 1)])
                seat = SeatResult(0, f"Racer {index:03d}", 1, 2, 3, 4, player.id)
                await store.record_finish(replace(race, seats=(seat, *race.seats[1:])))
            last = players[-1]
            async with store.unit() as session:
                head = (await session.execute(daily.board_query("2026-05-01", None, 100))).all()
                mine = (await session.execute(daily.board_query("2026-05-01", last, 100))).all()
            assert len(head) == 100 and {row.rank for row in head} == {1}
            assert len(mine) == 101 and mine[-1].player_id == last
            board = await daily.day_board("2026-05-01", last)
            assert [e.name for e in board.entries] == [f"Racer {i:03d}" for i in range(100)]
            assert board.ranked == 150 and board.mine is not None and board.mine.rank == 1
        finally:
            await store.close()

    run(scenario())


def test_the_cup_board_sums_place_points_per_player(results_database: str) -> None:
    """Counted deals' place points and laps add up per player, as plain ints on every
    database; a second claim of one deal fails."""

    async def scenario() -> None:
        store = ResultsStore(async_url(results_database))
        await store.open()
        cup = CupResults(store)
        try:
            first, _ = await store.create_player(None)
            second, _ = await store.create_player(None)
            for deal, people in ((1, [(first.id, 1), (second.id, 2)]), (2, [(first.id, 2)])):
                for player_id, place in people:
                    game_id = f"c{deal}-{player_id}"
                    assert await cup.claim("2026-W18", deal, player_id, game_id, START)
                    await store.record_finish(finish(game_id, [(player_id, place)]))
            assert not await cup.claim("2026-W18", 1, first.id, "again", START)
            assert await cup.results_of("2026-W18", first.id) == [
                DealResult(1, 1, 2, 3, False),
                DealResult(2, 2, 1, 2, False),
            ]
            board = await cup.board("2026-W18", second.id)
            assert [(e.rank, e.player_id, e.points, e.laps, e.deals) for e in board.entries] == [
                (1, first.id, 5, 3, 2),
                (2, second.id, 2, 1, 1),
            ]
            assert board.ranked == 2 and board.mine == board.entries[1]
            numbers = [getattr(e, name) for e in board.entries for name in ("points", "laps")]
            assert {type(number) for number in numbers} == {int}
        finally:
            await store.close()

    run(scenario())


def test_a_finish_survives_its_outbox_form_unchanged() -> None:
    race = finish("kept", [(7, 2)], practice=True, minutes=5)
    assert Finish.from_json(race.to_json()) == race


def test_an_unreachable_database_is_results_unavailable() -> None:
    """Nothing listens on the port: every call says so with the results' one error."""

    async def scenario() -> None:
        store = ResultsStore(async_url(f"postgresql://zzv@127.0.0.1:{find_free_port()}/none"))
        with pytest.raises(ResultsUnavailable):
            await store.player_for("someone")
        with pytest.raises(ResultsUnavailable):
            await store.record_finish(finish("lost", [(1, 1)]))
        await store.close()

    run(scenario())


def test_two_recorders_on_one_outbox_record_each_race_once(results_database: str) -> None:
    """Two processes' recorders drain one outbox at once (and one delivers again what the
    other recorded): every race is recorded once, its person rated once, the outbox empty."""

    async def scenario() -> None:
        outbox = MemoryStore(GameSession.from_dict, max_games=10, idle_expiry_seconds=60)
        one = ResultsStore(async_url(results_database))
        two = ResultsStore(async_url(results_database))
        await one.open()
        await two.open()
        try:
            people = [(await one.create_player())[0] for _ in range(4)]
            for number, person in enumerate(people):
                race = bare_session(new_game(players=3, seed=number), f"race-{number}")
                await outbox.create(race, "client")
                async with outbox.lock(race.id) as found:
                    assert found.lease is not None
                    message = finish(race.id, [(person.id, 1)]).to_json()
                    await outbox.save(race, found.lease, message)
            first, second = Recorder(one, outbox), Recorder(two, outbox)
            waiting = await outbox.outbox()
            assert await asyncio.gather(first.drain(), second.drain()) == [0, 0]
            assert await second.deliver("race-0", waiting["race-0"])  # recorded already
            assert await outbox.outbox() == {}
            races = {entry.id: entry.races for entry in await two.leaderboard()}
            for person in people:
                assert races[person.id] == 1
                assert [e.game_id for e in await two.history(person.id)] == [
                    f"race-{people.index(person)}"
                ]
        finally:
            await one.close()
            await two.close()

    run(scenario())


def test_every_player_id_gets_a_name_of_its_own() -> None:
    names = [pseudonym(player_id) for player_id in range(1, 5001)]
    assert len(set(names)) == len(names)
    assert all(len(name) <= 20 for name in names)  # as short as a chosen name may be


def test_a_run_stopped_from_another_event_loop_ends_there_and_never_spins(
    tmp_path: Path,
) -> None:
    """An app started again on another loop (as the schema tests do) and stopped there:
    the first loop's run is cancelled on its own loop, which stays free (a run left behind
    without its wake event drained in a tight loop and starved its loop for good)."""
    import threading

    first = asyncio.new_event_loop()
    thread = threading.Thread(target=first.run_forever, daemon=True)
    thread.start()
    outbox = MemoryStore(GameSession.from_dict, max_games=10, idle_expiry_seconds=60)
    recorder = Recorder(ResultsStore(async_url(f"sqlite:///{tmp_path / 'r.db'}")), outbox)

    async def start() -> asyncio.Task[None] | None:
        recorder.start()
        return recorder._task

    try:
        task = asyncio.run_coroutine_threadsafe(start(), first).result(timeout=10)
        assert task is not None

        async def again_then_stop() -> None:  # the app started again on a second loop
            recorder.start()
            await recorder.stop()

        asyncio.run(again_then_stop())

        async def ended() -> bool:
            await await_until(task.done, "the first loop's recorder task ending", timeout=5)
            return task.cancelled()

        # a starved loop would not even run this check
        assert asyncio.run_coroutine_threadsafe(ended(), first).result(timeout=10)
    finally:
        first.call_soon_threadsafe(first.stop)
        thread.join(10)
        first.close()
