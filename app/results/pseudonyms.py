"""The name a player shows until they choose one: a colour, a racer and a number.

Every player id gets its own (the mapping is one to one), so the boards are never a list
of strangers called "Racer 1234", and a name tells nothing about the player.
"""

from __future__ import annotations

from engine.cards import RACER_SUIT_IDS, SEAT_COLOURS

COLOURS = tuple(colour.capitalize() for colour in SEAT_COLOURS)
RACERS = tuple(suit.capitalize() for suit in RACER_SUIT_IDS)


def pseudonym(player_id: int) -> str:
    """The generated name of player ``player_id``: distinct ids give distinct names.

    >>> pseudonym(0), pseudonym(1), pseudonym(5), pseudonym(30)
    ('Pink Lichen 1', 'Orange Lichen 1', 'Pink Salty 1', 'Pink Lichen 2')
    """
    colours, racers = len(COLOURS), len(RACERS)
    colour = COLOURS[player_id % colours]
    racer = RACERS[(player_id // colours) % racers]
    return f"{colour} {racer} {player_id // (colours * racers) + 1}"
