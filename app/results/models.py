"""The results' tables, which the migrations build exactly (a test compares them): a change
needs a new migration, never an edit of an old one. A player is known by their token's
SHA-256, never the token.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, MetaData, String, false, true
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Constraint names fixed by rule, so a migration can name what it drops on any database."""


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {dict[str, Any]: JSON, datetime: DateTime(timezone=True), float: Float}


class Player(Base):
    """A person, known by their token's digest; no signup, no e-mail, nothing else."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str | None] = mapped_column(String(40))
    show_on_leaderboard: Mapped[bool] = mapped_column(server_default=true())
    mu: Mapped[float]
    sigma: Mapped[float]
    ordinal: Mapped[float]
    """``mu - 3 sigma``, kept beside them so the leaderboard sorts on an index."""
    races: Mapped[int] = mapped_column(server_default="0")
    """Rated races: finished races that were not practice."""
    created_at: Mapped[datetime]
    browser_record: Mapped[dict[str, Any] | None]
    """The record per bot level the browser kept before, imported once."""

    __table_args__ = (Index("ix_players_board", "show_on_leaderboard", "ordinal"),)


class FinishedRace(Base):
    """A race that ended, with at least one person in it."""

    __tablename__ = "finished_races"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    finished_at: Mapped[datetime] = mapped_column(index=True)
    kind: Mapped[str] = mapped_column(String(16), server_default="race")
    """``race`` (started by a person), or the kind a feature names (a daily deal...)."""
    players: Mapped[int]
    people: Mapped[int]
    bots: Mapped[str] = mapped_column(String(16))
    settings: Mapped[dict[str, Any]]
    practice: Mapped[bool]
    record: Mapped[dict[str, Any]]
    """The public record (no hidden card is in it)."""
    sealed: Mapped[dict[str, Any] | None]
    """What the record reveals once its day or week closed (a daily or cup race's deal)."""


class RaceResult(Base):
    """One seat's result in a finished race."""

    __tablename__ = "race_results"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("finished_races.game_id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), index=True
    )
    bot_level: Mapped[str | None] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(40))
    place: Mapped[int]
    laps: Mapped[int]
    tricks: Mapped[int]
    gas: Mapped[int]
    left_race: Mapped[bool] = mapped_column(server_default=false())
    """The person left (docs/ratings.md, "Leaving is losing"): placed last."""
    mu_before: Mapped[float | None]
    sigma_before: Mapped[float | None]
    mu_after: Mapped[float | None]
    sigma_after: Mapped[float | None]


class ServerKey(Base):
    """A named secret shared by every worker on this database."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


METADATA = Base.metadata
"""Every results table (what the migrations must match)."""


class Attempt:
    """A counted attempt's player and race (:class:`DailyEntry`, :class:`CupEntry`)."""

    # sort_order: each table's columns, and so its key, in the order the migrations made.

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, sort_order=1
    )
    game_id: Mapped[str] = mapped_column(String(32), unique=True, sort_order=3)
    started_at: Mapped[datetime] = mapped_column(sort_order=3)
    address: Mapped[str | None] = mapped_column(String(64), sort_order=3)
    """A keyed digest of the client's address (never the address): the limit counts it."""


class DailyEntry(Attempt, Base):
    """A player's counted attempt at a day's daily deal (:mod:`app.results.daily`)."""

    __tablename__ = "daily_entries"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    """The UTC date, ``YYYY-MM-DD``."""

    # A player's days (their streak) without reading every player's; an address's
    # attempts of a day without reading the day's.
    __table_args__ = (
        Index("ix_daily_entries_player_day", "player_id", "day"),
        Index("ix_daily_entries_day_address", "day", "address"),
    )


class CupEntry(Attempt, Base):
    """A player's counted attempt at a deal of a week's cup (:mod:`app.results.cup`)."""

    __tablename__ = "cup_entries"

    week: Mapped[str] = mapped_column(String(8), primary_key=True)
    """The ISO week, ``YYYY-Www``."""
    deal: Mapped[int] = mapped_column(primary_key=True, sort_order=2)
    """Which of the week's deals, from 1."""

    __table_args__ = (Index("ix_cup_entries_week_deal_address", "week", "deal", "address"),)
