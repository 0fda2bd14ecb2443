"""Why the engine refuses an action: a stable code, the rule behind it, and the code's
parameters.

The engine speaks no language. The web layer turns a refusal into a sentence from its
message catalog, keyed by ``code`` (docs/translating.md); the API sends the code as it is.

>>> Refusal.of("card_not_in_hand", "R7", suit="jelly").param("suit")
'jelly'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Refusal:
    """``code`` names the refusal (the catalog's key), ``rule`` the rule id in
    docs/rules.md it comes from (``None`` for malformed input), and ``params`` the values
    its sentence names, as ``(name, value)`` pairs: suits by their id."""

    code: str
    rule: str | None = None
    params: tuple[tuple[str, str | int], ...] = ()

    @classmethod
    def of(cls, code: str, rule: str | None = None, **params: str | int) -> Refusal:
        """A refusal with ``params`` given by name."""
        return cls(code, rule, tuple(params.items()))

    def param(self, name: str) -> str | int:
        """The parameter ``name`` (``KeyError`` if the code has none of that name)."""
        for key, value in self.params:
            if key == name:
                return value
        raise KeyError(name)

    def as_dict(self) -> dict[str, str | int]:
        """The parameters by name."""
        return dict(self.params)


class IllegalAction(ValueError):
    """Raised for any action the rules do not allow, or that is not an action at all;
    ``refusal`` says why (``str()`` of the exception is its code, for logs)."""

    def __init__(self, refusal: Refusal) -> None:
        """Carry ``refusal``."""
        super().__init__(refusal.code)
        self.refusal = refusal
