"""Small pieces of English shared by the sentences the races put together for people."""

from __future__ import annotations


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and ``word``, in the plural unless ``n`` is 1 (``plural``, else ``word`` + s).

    >>> counted(1, "lap"), counted(0, "inaccuracy", "inaccuracies"), counted(3, "trick")
    ('1 lap', '0 inaccuracies', '3 tricks')
    """
    return f"{n} {word if n == 1 else plural or word + 's'}"


__all__ = ["counted"]
