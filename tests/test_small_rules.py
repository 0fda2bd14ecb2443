"""Worked examples of small rules of the results, the bots' runner, the settings and the
command line (they were doctests in app/)."""

from __future__ import annotations

import asyncio
from typing import Any

from app.bots.runner import SearchGate, search_budget_ms
from app.cli import browser_url, find_save_hook, workers_problem
from app.paths import STATIC_DIR, TEMPLATES_DIR
from app.results.cup import CupBoard
from app.results.daily import DayBoard
from app.results.daily_times import closes_at
from app.results.database import async_url
from app.results.ratings import BOT_RATINGS, Rating, display, places, rate
from app.results.store import pseudonym
from app.settings import Settings
from app.storage.interface import RecordHead


def test_a_freed_slot_goes_to_the_lowest_priority_value() -> None:
    async def demo() -> list[str]:
        gate, order = SearchGate(1), []
        await gate.acquire(0.0)

        async def wait(name: str, priority: float) -> None:
            await gate.acquire(priority)
            order.append(name)
            gate.release()

        late = asyncio.ensure_future(wait("late", 2.0))
        early = asyncio.ensure_future(wait("early", 1.0))
        await asyncio.sleep(0)
        gate.release()
        await asyncio.gather(late, early)
        return order

    assert asyncio.run(demo()) == ["early", "late"]


def test_search_budgets_shrink_with_the_queue_and_the_move_s_time_left() -> None:
    assert (search_budget_ms(200, 0, 2, 30), search_budget_ms(200, 2, 2, 30)) == (200, 100)
    assert (search_budget_ms(200, 40, 2, 30), search_budget_ms(20, 0, 2, 30)) == (30, 20)
    assert search_budget_ms(200, 0, 2, 30, left_ms=300, searches_left=3) == 100
    assert search_budget_ms(200, 0, 2, 30, left_ms=-50, searches_left=2) == 30


def test_the_save_hook_is_found_inside_uvicorn_s_wrappers() -> None:
    class App:
        state: Any
        app: Any

    inner = App()
    inner.state = App()
    inner.state.save_now = print
    wrapper = App()
    wrapper.app = inner
    assert find_save_hook(wrapper) is print
    assert find_save_hook(App()) is None


def test_a_wildcard_bind_is_shown_as_loopback() -> None:
    assert browser_url("0.0.0.0", 8000) == "http://127.0.0.1:8000"
    assert browser_url("::1", 9000) == "http://[::1]:9000"


def test_several_workers_need_redis() -> None:
    assert workers_problem(2, Settings(redis_url=None)) is not None
    assert workers_problem(2, Settings(redis_url="redis://localhost:6379/0")) is None


def test_allowed_hosts_read_as_a_list_or_json() -> None:
    assert Settings(allowed_hosts="localhost, vroom.example").allowed_hosts == (
        "localhost",
        "vroom.example",
    )
    assert Settings(allowed_hosts='["[::1]"]').allowed_hosts == ("[::1]",)
    both = Settings(allowed_hosts=("a.example",), public_url="https://B.example:8443/x")
    assert both.trusted_hosts == ("a.example", "b.example")


def test_the_race_caps_of_an_address_and_a_player() -> None:
    assert (Settings(max_games=20).address_cap, Settings(max_games=2000).address_cap) == (10, 200)
    assert Settings(max_games=1).address_cap == 1
    assert Settings(max_games_per_client=500).address_cap == 500
    assert (Settings(max_games=20).player_cap, Settings(max_games=2000).player_cap) == (10, 20)


def test_database_urls_get_the_async_drivers() -> None:
    assert async_url("postgresql://zzv:pw@db:5432/zzv").drivername == "postgresql+asyncpg"
    assert async_url("postgres://db/zzv").drivername == "postgresql+asyncpg"
    assert async_url("sqlite:////tmp/r.db").drivername == "sqlite+aiosqlite"


def test_a_win_raises_mu_and_lowers_sigma() -> None:
    after = rate([Rating(), BOT_RATINGS["easy"]], [1, 2])
    assert after[0].mu > Rating().mu and after[0].sigma < Rating().sigma


def test_places_winner_first_then_laps_gas_and_leavers_last() -> None:
    assert places([2, 1, 1, 0], [0, 3, 3, 5], 0) == [1, 2, 2, 4]
    assert places([1, 2, 1], [4, 0, 2], 1) == [2, 1, 3]
    assert places([1, 0, 1, 0], [2, 5, 3, 1], None, {2, 3}) == [1, 2, 3, 3]


def test_a_rating_is_shown_as_1000_plus_40_times_mu_minus_3_sigma() -> None:
    assert Rating().ordinal == 0.0
    assert (display(Rating()), display(Rating(30.0, 2.0))) == (1000, 1960)


def test_a_day_closes_two_hours_after_it_ends_and_a_week_after_its_sunday() -> None:
    assert closes_at("1970-01-01") == 86400 + 7200
    assert closes_at("1970-W02") == (4 + 7) * 86400 + 7200


def test_generated_names() -> None:
    assert [pseudonym(i) for i in (0, 1, 5, 30)] == [
        "Pink Lichen 1",
        "Orange Lichen 1",
        "Pink Salty 1",
        "Pink Lichen 2",
    ]


def test_the_board_aliases_build_boards() -> None:
    assert DayBoard([], 0, None).ranked == CupBoard([], 0, None).ranked == 0


def test_a_record_head_reads_back_and_an_old_one_reads_as_live() -> None:
    head = RecordHead(("ab", ""), 12.5, live=False, player=7)
    assert RecordHead.from_json(head.to_json()) == head
    assert RecordHead.from_json('[["ab"],null]') == RecordHead(("ab",), None, True, None)


def test_the_templates_and_static_assets_are_found() -> None:
    assert (TEMPLATES_DIR / "base.html").is_file() and (STATIC_DIR / "vendor").is_dir()
