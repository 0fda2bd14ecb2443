"""The game table's view models: what ``game.html`` prints, from one session state
(:func:`table_context`). No game rules here: every number comes from the observation or an
event; the only engine facts used are printed card data (names, values, colours)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from app.http.i18n import gettext as _
from app.http.previews import with_previews
from app.http.web.forms import SubmittedMove
from app.http.web.labels import (
    PRINTED_VALUES,
    SUITS,
    Me,
    SuitInfo,
    Viewer,
    is_viewer,
    people_names,
    seat_colour,
    seat_name,
    viewer,
)
from app.http.web.narration import narrate, say
from app.http.web.replay import ReplayStep, TrickCard, round_stories, trick_card
from app.http.web.timeline import (
    is_my_play,
    log_rounds,
    moments,
    recent_item,
    round_start,
    round_summary,
    since_my_last_play,
)
from app.races.operations import SessionState
from engine import LAPS_TO_WIN, EventKind, Observation, shapes

SPECTATOR = -1
"""The viewer's seat on a watch page: it matches no seat, so nobody is "You"."""

SPECTATOR_RECENT = 12
"""Latest events a watch page lists (a seat lists those since its own last card)."""

REMATCH_POLL_SECONDS = 3
"""How often a finished table polls for a rematch (its live stream ended with the race)."""


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One lane of the racetrack and one seat badge: the seat's public numbers and names."""

    numbers: shapes.PlayerView
    name: str
    colour: str
    is_you: bool
    is_lead: bool
    is_turn: bool
    is_winner: bool

    def __hash__(self) -> int:
        # A lane is a kept piece's argument (templating.piece); its numbers are a dict.
        return hash((self.name, self.is_turn, frozenset(self.numbers.items())))

    @property
    def lap_slots(self) -> list[bool]:
        """The lap flags still to win and won, won ones first."""
        laps = self.numbers["laps"]
        return [i < laps for i in range(max(LAPS_TO_WIN, laps))]


@dataclass(frozen=True, slots=True)
class HandCard:
    """A distinct card in the viewer's hand, with its turn option when there is one."""

    index: int
    suit: SuitInfo
    value: int
    count: int
    option: shapes.CardOption | None
    can_play_face_up: bool
    blocked_reason: str | None
    effective_value: int
    """What the card would count now (a 4 or 5 under a 1 counts less)."""


def players_view(obs: Observation, me: Me) -> list[PlayerView]:
    """Every seat's public numbers, with names (as ``me`` calls them) and colours."""
    return [
        PlayerView(
            numbers=p.copy(),  # a kept piece's key: no later change to the view reaches it
            name=seat_name(p["seat"], me),
            colour=seat_colour(p["seat"]),
            is_you=p["seat"] == viewer(me).seat,
            is_lead=p["seat"] == obs["lead"] and not obs["game_over"],
            is_turn=p["seat"] == obs["current_seat"],
            is_winner=p["seat"] == obs["winner"],
        )
        for p in obs["players"]
    ]


def standing(player: PlayerView) -> tuple[bool, int, int, int]:
    """Where ``player`` stands, as the standings' caption states: laps, then gas."""
    numbers = player.numbers
    return (not player.is_winner, -numbers["laps"], -numbers["gas"], numbers["seat"])


def trick_cards(obs: Observation, me: Me) -> list[TrickCard]:
    """The trick in play order, then places for the seats still to play, clockwise."""
    plays, best = obs["trick_plays"], obs["best"]
    best_seat = best["seat"] if best else None
    cards = [trick_card(p["seat"], i + 1, me, p, best_seat) for i, p in enumerate(plays)]
    if obs["game_over"]:
        return cards
    played = {p["seat"] for p in plays}
    players = obs["players_count"]
    for seat in [(obs["lead"] + i) % players for i in range(players)]:
        if seat not in played:
            place = trick_card(seat, len(cards) + 1, me)
            cards.append(replace(place, is_turn=seat == obs["current_seat"]))
    return cards


def trick_record(record: shapes.TrickRecord | None, obs: Observation, me: Me) -> ReplayStep | None:
    """The engine's last finished trick, as the replay shows a trick (nobody's: all Tune Ups)."""
    if not record:
        return None
    winner = record["winner"]
    cards = [trick_card(p["seat"], i + 1, me, p, winner) for i, p in enumerate(record["plays"])]
    final = next((c.play["final"] for c in cards if c.seat == winner and c.play), None)
    name = None if winner is None else seat_name(winner, me)
    return ReplayStep(0, obs["round"], record["trick"], cards, name, final)


def hand_cards(obs: Observation) -> list[HandCard]:
    options = {o["suit"]: o for o in obs["card_options"]}
    cards = []
    for i, (suit_id, count) in enumerate(Counter(obs["hand"]).items()):
        value, o = PRINTED_VALUES[suit_id], options.get(suit_id)
        now = (o["can_play_face_up"], o["blocked_reason"], o["effective_value"]) if o else None
        cards.append(
            HandCard(i + 1, SUITS[suit_id], value, count, o, *(now or (False, None, value)))
        )
    return cards


def is_my_turn(obs: Observation) -> bool:
    return obs["current_seat"] == obs["seat"] and not obs["game_over"]


def page_title(obs: Observation) -> str:
    if obs["game_over"]:
        if obs["winner"] == obs["seat"]:
            return _("You won! · Zoom Zoom Vroom")
        return _("Race over · Zoom Zoom Vroom")
    if is_my_turn(obs):
        return _("Your turn · Zoom Zoom Vroom")
    return _("Round %(n)s · Zoom Zoom Vroom") % {"n": obs["round"]}


def status_text(obs: Observation, me: Me) -> str:
    if obs["game_over"]:
        return say(obs["winner"], me, "won_race", {})
    if is_my_turn(obs):
        best = obs["best"]
        if best:
            return _("Your turn: beat %(name)s's %(final)s, or tune up.") % {
                "name": seat_name(best["seat"], me),
                "final": best["final"],
            }
        if obs["trick_plays"]:
            return _("Your turn: nothing is face up yet.")
        return _("Your turn: you lead this trick.")
    return _("%(name)s is thinking…") % {"name": seat_name(obs["current_seat"], me)}


def move_form_context(obs: Observation) -> dict[str, Any]:
    """What the move form offers beyond the hand, and the most gas any choice can carry."""
    options, zero_five = obs["card_options"], obs["zero_five_option"]
    gas_limits = [o["gas_max"] for o in options]
    zero_choices: list[str] = []
    for option in options:
        if option["suit"] == "zero" and option["can_play_face_up"]:
            zero_choices = list(option["zero_effect_choices"])
            gas_limits.extend(p["gas_max"] for p in option["zero_previews"].values())
    previews: dict[str, dict[str, int]] = {}
    if zero_five:
        for key in map(str, zero_five["values"]):
            value_now, gas_max = zero_five["effective_value"][key], zero_five["gas_max"][key]
            previews[key] = {"value": value_now, "gas_max": gas_max, "speed": zero_five["speed"]}
            gas_limits.append(gas_max)
    return {
        "zero_choices": zero_choices,
        "zero_five": zero_five,
        "zero_five_previews": previews,
        "gas_limit": max(gas_limits, default=0),
    }


def story_context(events: list[dict[str, Any]], obs: Observation, reader: Me) -> dict[str, Any]:
    """The words around the table: what happened since the viewer's last card, the round
    summary, the log of the rounds that story touches (earlier ones: ``/games/{id}/log``)
    and, at the end, every round's story."""
    me = viewer(reader).seat
    since = since_my_last_play(events, me)
    if me == SPECTATOR:
        since = max(0, len(events) - SPECTATOR_RECENT)
    recent_events = events[since:]
    first = round_start(events, since)
    # The log's window holds the recent events: each is told once, for both.
    lines = [narrate(event, reader) for event in events[first:]]
    deal = events[first] if events else None
    shown_from = int(deal["round"]) if deal and deal["kind"] == EventKind.ROUND_DEALT else 1
    over = obs["game_over"]
    return {
        "recent": [
            recent_item(e, line)
            for e, line in zip(recent_events, lines[since - first :], strict=True)
        ],
        "has_played": any(is_my_play(e, me) for e in recent_events),
        "round_summary": round_summary(recent_events, reader, over),
        "log": log_rounds(events[first:], reader, lines),
        "log_open": True,
        "log_from": shown_from,
        "stories": round_stories(events, obs["players_count"], reader) if over else [],
        "moments": moments(recent_events, since + 1, reader),
    }


def seat_viewer(state: SessionState) -> Viewer:
    """The reader of a table state (seat None or :data:`SPECTATOR` for a watch page)."""
    seat = state["seat"]
    return Viewer(SPECTATOR if seat is None else seat, people_names(state.get("seats") or []))


def people_count(state: SessionState) -> int:
    return sum(1 for seat in state.get("seats") or [] if seat["person"])


def seats_context(state: SessionState, reader: Viewer) -> dict[str, Any]:
    """The seat bar's facts (its seats are ``players``, whose turn counts only while
    ``phase`` is playing): the turn clock, the autopilot's move of this turn and the away
    seats (the reader's own first; ``away_me``: they may take it back). Public facts only."""
    me, seats, playing = state["seat"], state.get("seats") or [], state.get("status") == "playing"
    autopilot = state.get("autopilot")
    away = [s["seat"] for s in seats if s.get("away")] if playing else []
    away.sort(key=lambda seat: not is_viewer(seat, reader))
    return {
        "friends": people_count(state) > 1 or bool(state.get("watch")),
        "clock": state.get("clock"),
        "autopilot": autopilot if autopilot and autopilot["turn"] == state["turn"] else None,
        "phase": state.get("status", "playing"),
        "watching": me == SPECTATOR,
        "away": away,
        "away_me": any(is_viewer(seat, reader) for seat in away),
    }


def rematch_box(state: SessionState, watching: bool) -> dict[str, Any] | None:
    """None, or the rematch box of a race people raced together: the ``offer`` (None: none
    yet), this person's ``answer`` ("yes", "no" or None) and how often the box still polls."""
    if watching or people_count(state) < 2 or state.get("status") != "over":
        return None
    offer = state.get("rematch")
    answer = None if offer is None else offer["answers"].get(str(state["seat"]))
    return {
        "offer": offer,
        "answer": answer,
        "poll": REMATCH_POLL_SECONDS if answer is None else None,
    }


def table_context(
    state: SessionState,
    *,
    error: str | None = None,
    animate: bool = False,
    submitted: SubmittedMove | None = None,
    preview: str | None = None,
) -> dict[str, Any]:
    """Everything ``partials/table.html`` prints, from a seat's (or the public, seat None)
    state, its ``events`` from :func:`app.http.web.table_page.window` on."""
    state = with_previews(state)
    if state["seat"] is None:
        state = {**state, "seat": SPECTATOR}
    me = state["seat"]
    reader = seat_viewer(state)
    players = players_view(state, reader)
    hand = hand_cards(state)
    return {
        "obs": state,
        "game_id": state["game_id"],
        "turn": state["turn"],
        "title": page_title(state),
        "status": status_text(state, reader),
        "my_turn": is_my_turn(state),
        "me": None if me == SPECTATOR else players[me],
        "lead": players[state["lead"]],
        "players": players,
        "standings": sorted(players, key=standing),
        # The track's spaces: Start plus 5, longer if someone is faster.
        "cells": max(6, max((p["speed"] for p in state["players"]), default=0) + 1),
        "trick": trick_cards(state, reader),
        "last_trick": trick_record(state["last_trick"], state, reader),
        "hand": hand,
        "blocked": [card for card in hand if card.blocked_reason],  # their notes under the hand
        **move_form_context(state),
        "submitted": submitted or SubmittedMove(),  # the choices a refused form made
        **story_context(state["events"], state, reader),
        **seats_context(state, reader),
        "rematch": rematch_box(state, me == SPECTATOR),
        "viewer": reader,
        "animate": animate,
        "error": error,
        "notice": state.get("notice"),
        "preview": preview,
    }
