"""Small pieces of English shared by the sentences the races put together for people."""

from __future__ import annotations


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and ``word``, in the plural unless ``n`` is 1 (``plural``, else ``word`` + s).

    >>> counted(1, "lap"), counted(0, "inaccuracy", "inaccuracies"), counted(3, "trick")
    ('1 lap', '0 inaccuracies', '3 tricks')
    """
    return f"{n} {word if n == 1 else plural or word + 's'}"


def ordinal(n: int) -> str:
    """``n`` as a place: 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102, 111)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '102nd', '111th']
    """
    teen = 10 <= n % 100 <= 20
    return f"{n}{'th' if teen else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


__all__ = ["counted", "ordinal"]
