"""What the language tests share: the English left on a page that should be in another
language."""

from __future__ import annotations

import re
from functools import cache

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from app.http.i18n import LOCALE_DIR, template_path
from engine.cards import RACER_NAME, VEHICLE_NAME

_PIECE_BREAK = re.compile(r"%\([^)]*\)[sd]|<[^>]+>|&[a-z]+;")
_SPACES = re.compile(r"\s+")
MIN_WORDS = 3
"""An English piece this long found on a page is English left over; a shorter one may be a
name, a word borrowed by the language, or chance."""

GAME_NAMES = sorted(
    {
        *RACER_NAME.values(),
        *VEHICLE_NAME.values(),
        *(suit.value.title() for suit in RACER_NAME),
        "Tune Up",
        "Zoom Zoom Vroom",
    },
    key=len,
    reverse=True,
)
"""The game's own names, kept in every language: they are not English words to find."""


def _words(piece: str) -> int:
    for name in GAME_NAMES:
        piece = piece.replace(name, " ")
    return len(piece.split())


@cache
def english_pieces(code: str) -> tuple[str, ...]:
    """The English pieces (between placeholders and tags) of every message whose
    translation into ``code`` is not the English itself, each at least :data:`MIN_WORDS`
    words."""
    with template_path().open("rb") as file:
        english = read_po(file)
    path = LOCALE_DIR / code.replace("-", "_") / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as file:
        translated = read_po(file, locale=code.replace("-", "_"))
    pieces: set[str] = set()
    for message in english:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message_strings(translated, message.id, message.context)
        for text in ids:
            if text in strings:
                continue
            for piece in _PIECE_BREAK.split(_SPACES.sub(" ", text)):
                piece = piece.strip(" .,:;!?()\"'—–-")
                if _words(piece) >= MIN_WORDS:
                    pieces.add(piece)
    return tuple(sorted(pieces))


def message_strings(
    catalog: Catalog, message_id: str | tuple[str, ...], context: str | None = None
) -> tuple[str, ...]:
    """The translations of ``message_id`` (meant in ``context``) in ``catalog`` (none when
    it has none)."""
    found = catalog.get(message_id[0] if isinstance(message_id, tuple) else message_id, context)
    if found is None or not found.string:
        return ()
    return found.string if isinstance(found.string, tuple) else (found.string,)


def english_left(text: str, code: str) -> list[str]:
    """The English pieces of the catalog found in ``text`` (a page's visible text) although
    ``code`` translates them."""
    flat = _SPACES.sub(" ", text)
    return [piece for piece in english_pieces(code) if piece in flat]
