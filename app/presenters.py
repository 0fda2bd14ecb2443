"""Formatting for the HTML table: names, colours, icons and plain-English sentences.

Owned by the web layer. Everything here turns a seat's observation (``Game.observation``)
and the public event log into things a template can print. There are no game rules in
this module: every number shown comes from the observation or from an event, and the
only engine facts used are printed card data (names, printed values, seat colours).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import MAX_GAS, RACER_NAME, SEAT_COLOURS, SUIT_VALUE, VEHICLE_NAME, Suit

Obs = Mapping[str, Any]
EventDict = Mapping[str, Any]

#: The id used for the per-player 0/5 card in forms and icons (it is not a :class:`Suit`).
ZERO_FIVE = "zero_five"

#: How many laps win the race, shown as empty flags still to collect.
LAPS_SHOWN = 2


@dataclass(frozen=True, slots=True)
class SuitInfo:
    """How one suit looks and reads: short and long names, its icon and what it does."""

    id: str
    short: str
    racer: str
    vehicle: str
    effect: str

    @property
    def icon(self) -> str:
        """Fragment id of the suit's symbol in ``static/img/icons.svg``."""
        return f"suit-{self.id}"


_EFFECTS = {
    Suit.LICHEN: "Knocks every face-up 4 and 5 in this trick down to 0.",
    Suit.SALTY: "Grabs 1 gas from the middle, ready to spend at once.",
    Suit.CHIPPY: "No trick up its sleeve: a steady 3.",
    Suit.JELLY: "No effect. Drops to 0 when a 1 is in the trick.",
    Suit.BEANS: "No effect. Drops to 0 when a 1 is in the trick.",
    Suit.SLIPPY: "No effect. Drops to 0 when a 1 is in the trick.",
    Suit.ZERO: "Pick one: +1 speed for the rest of the round, or one removed gas back.",
}

_SHORT = {
    Suit.LICHEN: "Lichen",
    Suit.SALTY: "Salty",
    Suit.CHIPPY: "Chippy",
    Suit.JELLY: "Jelly",
    Suit.BEANS: "Beans",
    Suit.SLIPPY: "Slippy",
    Suit.ZERO: "Zero",
}

SUITS: dict[str, SuitInfo] = {
    suit.value: SuitInfo(
        suit.value, _SHORT[suit], RACER_NAME[suit], VEHICLE_NAME[suit], _EFFECTS[suit]
    )
    for suit in Suit
}
SUITS[ZERO_FIVE] = SuitInfo(
    ZERO_FIVE,
    "0/5 card",
    "the 0/5 card",
    "your one-shot booster",
    "Once per race: win back removed gas. Counts 5 once you have a lap.",
)

#: Labels of the 0 card's two effects in the move form.
ZERO_EFFECT_LABELS: dict[str, str] = {
    "speed": "+1 speed this round",
    "gas": "1 removed gas back",
}

#: Labels of the 0/5 card's two values in the move form.
ZERO_FIVE_LABELS: dict[int, str] = {
    0: "wins back up to 2 removed gas",
    5: "wins back 1 removed gas",
}

#: Every suit in the order the rules page lists them.
RULES_SUIT_ORDER: tuple[str, ...] = (
    "lichen",
    "salty",
    "chippy",
    "jelly",
    "beans",
    "slippy",
    "zero",
    ZERO_FIVE,
)


def suit_info(suit_id: str | None) -> SuitInfo | None:
    """Display data for ``suit_id`` (``None`` for a face-down card)."""
    return None if suit_id is None else SUITS.get(suit_id)


def printed_value(suit_id: str) -> int:
    """The number printed on a card of ``suit_id`` (a fact of the card, not a rule)."""
    return SUIT_VALUE[Suit(suit_id)]


def seat_colour(seat: int) -> str:
    """The seat's colour name, also its CSS class suffix (``seat-pink``)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_name(seat: int | None, me: int = 0) -> str:
    """How a seat is called on the page: "You" for the viewer, else its colour."""
    if seat is None:
        return "Nobody"
    if seat == me:
        return "You"
    return seat_colour(seat).capitalize()


def _verb(seat: int | None, me: int, you: str, other: str) -> str:
    """Pick the verb form that agrees with "You" or a third-person colour name."""
    return you if seat == me else other


def _names(seats: Sequence[int], me: int) -> str:
    names = [seat_name(s, me) for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _gas(n: int) -> str:
    return f"{n} gas"


def narrate(event: EventDict, me: int = 0) -> str:
    """One plain sentence for a public event, from the point of view of seat ``me``."""
    kind = event.get("kind")
    seat = event.get("seat")
    who = seat_name(seat, me)
    if kind == "round_dealt":
        lead = seat_name(event.get("lead"), me)
        leads = _verb(event.get("lead"), me, "lead", "leads")
        return (
            f"Round {event.get('round')}: everyone is dealt up to "
            f"{event.get('hand_size')} cards. {lead} {leads} the first trick."
        )
    if kind == "card_played":
        info = SUITS[str(event.get("suit"))]
        plays = _verb(seat, me, "play", "plays")
        return (
            f"{who} {plays} {info.short} ({event.get('value')}) with {_gas(event.get('gas', 0))}"
            f" and speed {event.get('speed')}: {event.get('final')}."
        )
    if kind == "tuned_up":
        tunes = _verb(seat, me, "tune", "tunes")
        return f"{who} {tunes} up: a card goes face down."
    if kind == "zero_five_played":
        plays = _verb(seat, me, "play", "plays")
        return (
            f"{who} {plays} the 0/5 card as {event.get('value')}, winning back "
            f"{_gas(event.get('gained', 0))}, with {_gas(event.get('gas', 0))} and speed "
            f"{event.get('speed')}: {event.get('final')}."
        )
    if kind == "card_discarded":
        discards = _verb(seat, me, "discard", "discards")
        return f"{who} {discards} a card face down."
    if kind == "gas_taken":
        if event.get("amount"):
            grabs = _verb(seat, me, "grab", "grabs")
            return f"{who} {grabs} {_gas(event.get('amount', 0))} from the middle."
        tank = "your" if seat == me else "their"
        return f"The middle's gas would overflow {tank} tank, so it leaves the game."
    if kind == "zero_effect":
        if event.get("choice") == "speed":
            takes = _verb(seat, me, "take", "takes")
            return f"{who} {takes} +1 speed for the rest of the round."
        if event.get("gained"):
            wins = _verb(seat, me, "win", "wins")
            return f"{who} {wins} back {_gas(event.get('gained', 0))} from the removed pile."
        return f"{who} asked for removed gas, but the tank is full: it stays removed."
    if kind == "tune_up_share":
        return _share_sentence(event, me)
    if kind == "trick_won":
        wins = _verb(seat, me, "win", "wins")
        return f"{who} {wins} trick {event.get('trick')} with {event.get('final')}."
    if kind == "trick_all_tuned_up":
        return f"Everyone tuned up: nobody wins trick {event.get('trick')}."
    if kind == "gas_to_middle":
        amount = event.get("amount", 0)
        if not amount:
            return f"No gas was spent; the middle holds {event.get('middle')}."
        return (
            f"The {_gas(amount)} on the cards slides into the middle (now {event.get('middle')})."
        )
    if kind == "speed_gained":
        moves = _verb(seat, me, "move", "moves")
        return f"{who} {moves} up to speed {event.get('speed')}."
    if kind == "lap_gained":
        laps = event.get("laps")
        completes = _verb(seat, me, "complete", "completes")
        return f"{who} {completes} a lap ({laps} of {LAPS_SHOWN})!"
    if kind == "game_won":
        wins = _verb(seat, me, "win", "wins")
        return f"{who} {wins} the race!"
    return "Something happened on the track."


def _share_sentence(event: EventDict, me: int) -> str:
    """The Tune Up payout, saying who could not take their whole share (full tank)."""
    seats = [int(s) for s in event.get("seats", [])]
    each = int(event.get("each", 0))
    gained = [int(g) for g in event.get("gained", [each] * len(seats))]
    removed = int(event.get("removed", 0))
    pot = _gas(int(event.get("middle_before", 0)))
    gone = f"; {_gas(removed)} leaves the game." if removed else "."
    if len(seats) == 1:
        seat, got = seats[0], gained[0]
        who = seat_name(seat, me)
        if got == each:
            return (
                f"Tune Up payout: {who} {_verb(seat, me, 'take', 'takes')} the {pot} in the middle."
            )
        if got == 0:
            tank = "your" if seat == me else f"{who}'s"
            return (
                f"Tune Up payout: {tank} tank is full, so the {pot} in the middle leaves the game."
            )
        fills = _verb(seat, me, "fill", "fills")
        return f"Tune Up payout: {who} {fills} up with {got} of the {pot} in the middle{gone}"
    text = f"Tune Up payout: {_names(seats, me)} split the {pot} in the middle, {each} each"
    short = [
        f"{seat_name(seat, me)} only had room for {got}"
        for seat, got in zip(seats, gained, strict=False)
        if got < each
    ]
    if short:
        text += " (" + "; ".join(short) + ")"
    return text + gone


# --------------------------------------------------------------------------- view models


@dataclass(slots=True)
class PlayerView:
    """One lane of the racetrack and one seat badge."""

    seat: int
    name: str
    colour: str
    is_you: bool
    gas: int
    speed: int
    laps: int
    hand_size: int
    is_lead: bool
    is_turn: bool
    is_winner: bool
    zero_five_available: bool

    @property
    def gas_slots(self) -> list[bool]:
        """Five tank slots, full ones first."""
        return [i < self.gas for i in range(MAX_GAS)]

    @property
    def lap_slots(self) -> list[bool]:
        """Two lap flags, won ones first."""
        return [i < self.laps for i in range(max(LAPS_SHOWN, self.laps))]


@dataclass(slots=True)
class TrickCard:
    """A card lying in a trick, or an empty place for a seat still to play."""

    seat: int
    name: str
    colour: str
    order: int
    kind: str  # "play", "tune_up", "zero_five" or "pending"
    suit: SuitInfo | None = None
    value: int | None = None
    effective_value: int | None = None
    gas: int = 0
    speed: int | None = None
    final: int | None = None
    zero_effect: str | None = None
    is_best: bool = False
    is_turn: bool = False

    @property
    def struck(self) -> bool:
        """Whether the printed value is shown crossed out (it counts less here)."""
        return self.value is not None and self.effective_value != self.value

    @property
    def label(self) -> str:
        """A full sentence describing the card, for screen readers."""
        if self.kind == "pending":
            return f"{self.name}: still to play."
        if self.kind == "tune_up":
            return f"{self.name}: a Tune Up, face down."
        assert self.suit is not None
        struck = f", counting {self.effective_value}" if self.struck else ""
        best = " Best so far." if self.is_best else ""
        return (
            f"{self.name}: {self.suit.short} {self.value}{struck}, {_gas(self.gas)}, "
            f"speed {self.speed}, total {self.final}.{best}"
        )


@dataclass(slots=True)
class HandCard:
    """A distinct card in the viewer's hand, with what the move form needs to offer it."""

    index: int
    suit: SuitInfo
    value: int
    count: int
    option: Mapping[str, Any] | None = None

    @property
    def can_play_face_up(self) -> bool:
        """Whether the face-up choice is offered (only on the viewer's turn)."""
        return bool(self.option and self.option.get("can_play_face_up"))

    @property
    def blocked_reason(self) -> str | None:
        """The engine's sentence saying why this card cannot go face up now."""
        return None if self.option is None else self.option.get("blocked_reason")

    @property
    def effective_value(self) -> int:
        """What the card would count now (a 4 or 5 under a 1 counts less)."""
        if self.option is None:
            return self.value
        return int(self.option.get("effective_value", self.value))


@dataclass(slots=True)
class TrickRecord:
    """A finished trick, as the log and the "last trick" panel show it."""

    trick: int
    cards: list[TrickCard]
    winner: int | None
    winner_name: str
    winner_final: int | None


@dataclass(slots=True)
class LogRound:
    """One round of the game log: the deal sentence and its tricks, newest first."""

    round: int
    tricks: list[LogTrick]
    intro: str | None


@dataclass(slots=True)
class LogTrick:
    """One trick of the game log as sentences in the order they happened."""

    trick: int
    lines: list[str]
    complete: bool


@dataclass(slots=True)
class RecentItem:
    """One step of the staged reveal after a move."""

    kind: str
    seat: int | None
    colour: str | None
    text: str
    suit: SuitInfo | None = None
    final: int | None = None
    is_result: bool = False


def players_view(obs: Obs) -> list[PlayerView]:
    """Every seat's public numbers, with names and colours."""
    me = int(obs["seat"])
    winner = obs.get("winner")
    return [
        PlayerView(
            seat=p["seat"],
            name=seat_name(p["seat"], me),
            colour=seat_colour(p["seat"]),
            is_you=p["seat"] == me,
            gas=p["gas"],
            speed=p["speed"],
            laps=p["laps"],
            hand_size=p["hand_size"],
            is_lead=p["seat"] == obs.get("lead") and not obs.get("game_over"),
            is_turn=p["seat"] == obs.get("current_seat"),
            is_winner=p["seat"] == winner,
            zero_five_available=bool(p.get("zero_five_available")),
        )
        for p in obs["players"]
    ]


def track_cells(obs: Obs) -> int:
    """How many spaces the drawn track needs: Start plus 5, longer if someone is faster."""
    fastest = max((int(p["speed"]) for p in obs["players"]), default=0)
    return max(6, fastest + 1)


def _card(play: Mapping[str, Any], order: int, me: int, best_seat: int | None) -> TrickCard:
    seat = int(play["seat"])
    kind = str(play["type"])
    suit = suit_info(ZERO_FIVE if kind == "zero_five" else play.get("suit"))
    if kind == "tune_up":
        suit = None
    return TrickCard(
        seat=seat,
        name=seat_name(seat, me),
        colour=seat_colour(seat),
        order=order,
        kind=kind,
        suit=suit,
        value=play.get("value"),
        effective_value=play.get("effective_value"),
        gas=int(play.get("gas") or 0),
        speed=play.get("speed"),
        final=play.get("final"),
        zero_effect=play.get("zero_effect"),
        is_best=best_seat is not None and seat == best_seat and kind != "tune_up",
    )


def clockwise(lead: int, players: int) -> list[int]:
    """Seats in playing order starting from ``lead`` (seating order, not a rule)."""
    return [(lead + i) % players for i in range(players)]


def trick_cards(obs: Obs) -> list[TrickCard]:
    """The current trick in play order, followed by empty places for seats still to play."""
    me = int(obs["seat"])
    best = obs.get("best")
    best_seat = best["seat"] if best else None
    plays = list(obs.get("trick_plays") or [])
    cards = [_card(p, i + 1, me, best_seat) for i, p in enumerate(plays)]
    if obs.get("game_over"):
        return cards
    played = {int(p["seat"]) for p in plays}
    order = clockwise(int(obs["lead"]), int(obs["players_count"]))
    for seat in order:
        if seat not in played:
            cards.append(
                TrickCard(
                    seat=seat,
                    name=seat_name(seat, me),
                    colour=seat_colour(seat),
                    order=len(cards) + 1,
                    kind="pending",
                    is_turn=seat == obs.get("current_seat"),
                )
            )
    return cards


def trick_record(record: Mapping[str, Any] | None, me: int) -> TrickRecord | None:
    """A finished trick from the observation (``last_trick`` or ``round_tricks``)."""
    if not record:
        return None
    winner = record.get("winner")
    cards = [
        _card(p, i + 1, me, winner if winner is not None else None)
        for i, p in enumerate(record.get("plays", []))
    ]
    finals = [c.final for c in cards if c.seat == winner]
    return TrickRecord(
        trick=int(record["trick"]),
        cards=cards,
        winner=winner,
        winner_name=seat_name(winner, me),
        winner_final=finals[0] if finals else None,
    )


def hand_cards(obs: Obs) -> list[HandCard]:
    """Distinct cards in the viewer's hand, each with its turn option when there is one."""
    options = {o["suit"]: o for o in obs.get("card_options") or []}
    counts: dict[str, int] = {}
    for suit_id in obs.get("hand", []):
        counts[suit_id] = counts.get(suit_id, 0) + 1
    cards = []
    for i, (suit_id, count) in enumerate(counts.items()):
        cards.append(
            HandCard(
                index=i + 1,
                suit=SUITS[suit_id],
                value=printed_value(suit_id),
                count=count,
                option=options.get(suit_id),
            )
        )
    return cards


def is_my_turn(obs: Obs) -> bool:
    """Whether the viewer is the one to play now."""
    return obs.get("current_seat") == obs.get("seat") and not obs.get("game_over")


def page_title(obs: Obs) -> str:
    """The browser tab title: it says "Your turn" when it is."""
    if obs.get("game_over"):
        won = obs.get("winner") == obs.get("seat")
        return ("You won! · " if won else "Race over · ") + "Zoom Zoom Vroom"
    if is_my_turn(obs):
        return "Your turn · Zoom Zoom Vroom"
    return f"Round {obs.get('round')} · Zoom Zoom Vroom"


def status_text(obs: Obs) -> str:
    """The one-line banner at the top of the table."""
    me = int(obs["seat"])
    if obs.get("game_over"):
        winner = obs.get("winner")
        if winner == me:
            return "You won the race!"
        return f"{seat_name(winner, me)} won the race."
    if is_my_turn(obs):
        best = obs.get("best")
        if best:
            return f"Your turn: beat {seat_name(best['seat'], me)}'s {best['final']}, or tune up."
        if obs.get("trick_plays"):
            return "Your turn: nothing is face up yet."
        return "Your turn: you lead this trick."
    return f"{seat_name(obs.get('current_seat'), me)} is thinking…"


def best_text(best: Mapping[str, Any] | None, me: int) -> str:
    """ "best so far: 8 (Orange)", or a note that nothing is face up yet."""
    if not best:
        return "nothing face up yet"
    return f"{best['final']} ({seat_name(best['seat'], me)})"


PLAY_KINDS = frozenset({"card_played", "tuned_up", "zero_five_played"})
RESULT_KINDS = frozenset(
    {
        "tune_up_share",
        "trick_won",
        "trick_all_tuned_up",
        "gas_to_middle",
        "speed_gained",
        "lap_gained",
        "game_won",
        "round_dealt",
    }
)


def log_rounds(events: Iterable[EventDict], me: int = 0) -> list[LogRound]:
    """Group the public event log into rounds and tricks (newest first) as sentences.

    A trick opens with its first card and is complete once its gas has gone to the
    middle; the speed or lap line that follows still belongs to it.
    """
    rounds: list[LogRound] = []
    trick: LogTrick | None = None
    for event in events:
        kind = event.get("kind")
        if kind == "round_dealt":
            rounds.append(
                LogRound(int(event.get("round", len(rounds) + 1)), [], narrate(event, me))
            )
            trick = None
            continue
        if not rounds:
            rounds.append(LogRound(1, [], None))
        if trick is None or (kind in PLAY_KINDS and trick.complete):
            trick = LogTrick(len(rounds[-1].tricks) + 1, [], False)
            rounds[-1].tricks.append(trick)
        trick.lines.append(narrate(event, me))
        if kind == "gas_to_middle":
            trick.complete = True
    for rnd in rounds:
        rnd.tricks.reverse()
    rounds.reverse()
    return rounds


def recent_items(events: Iterable[EventDict], me: int = 0) -> list[RecentItem]:
    """The events since the viewer's last card, as steps for the staged reveal."""
    items = []
    for event in events:
        kind = str(event.get("kind"))
        seat = event.get("seat")
        suit = None
        if kind == "card_played":
            suit = suit_info(event.get("suit"))
        elif kind == "zero_five_played":
            suit = SUITS[ZERO_FIVE]
        items.append(
            RecentItem(
                kind=kind,
                seat=seat,
                colour=None if seat is None else seat_colour(seat),
                text=narrate(event, me),
                suit=suit,
                final=event.get("final") if kind in ("card_played", "zero_five_played") else None,
                is_result=kind in RESULT_KINDS,
            )
        )
    return items


def since_my_last_play(events: Sequence[EventDict], me: int = 0) -> int:
    """Index of the viewer's most recent card in ``events`` (0 if they have not played).

    The table shows everything from that card on, so a refresh shows the same story.
    """
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("kind") in PLAY_KINDS and events[i].get("seat") == me:
            return i
    return 0


@dataclass(slots=True)
class RoundSummary:
    """The box shown when a round finished since the viewer's last card."""

    round: int
    headline: str
    next_lead: str


def round_summary(recent: Sequence[EventDict], obs: Obs) -> RoundSummary | None:
    """Summarise a round that ended among ``recent`` events (``None`` if none did, or if
    the race itself ended: the game-over box covers that)."""
    if obs.get("game_over"):
        return None
    me = int(obs["seat"])
    deal = next(
        (e for e in recent if e.get("kind") == "round_dealt" and int(e.get("round", 1)) > 1),
        None,
    )
    if deal is None:
        return None
    lap = next((e for e in recent if e.get("kind") == "lap_gained"), None)
    if lap is not None:
        headline = narrate(lap, me)
    else:
        headline = "Everyone tuned up in the sixth trick, so nobody took a lap this round."
    lead = deal.get("lead")
    leads = _verb(lead, me, "lead", "leads")
    return RoundSummary(
        round=int(deal["round"]) - 1,
        headline=headline,
        next_lead=f"{seat_name(lead, me)} {leads} round {deal['round']}.",
    )
