"""Why the engine refuses an action: a stable code, the rule behind it and the code's
parameters, from one table (:data:`REASONS`); the web layer words it (docs/translating.md).

>>> Refusal.of("card_not_in_hand", suit="jelly").as_json()
{'code': 'card_not_in_hand', 'rule': 'R7', 'suit': 'jelly'}
"""

from __future__ import annotations

from dataclasses import dataclass

REASONS: dict[str | None, dict[str, tuple[str, ...]]] = {
    None: {  # not an action at all: its shape, before any rule
        "not_an_action": (),
        "not_legal": (),
        "action_not_object": (),
        "action_unknown_fields": ("fields",),
        "action_type_unknown": (),
        "no_such_card": ("name", "field"),
    },
    "R7": {
        "not_your_turn": ("seat", "current"),
        "choose_card": (),
        "card_not_in_hand": ("suit",),
        "suit_face_up": ("suit",),
        "choose_tune_up_card": (),
        "tune_up_no_effect": (),
    },
    "R8": {
        "gas_not_whole": (),
        "gas_not_integer": (),
        "tune_up_no_gas": (),
        "gas_over_supply": ("most",),
    },
    "R16": {"race_over": ()},
    "R20": {
        "choose_zero_effect": (),
        "zero_nothing_removed": (),
        "effect_only_for_zero": (),
        "zero_effect_unknown": (),
    },
    "R21": {"zero_five_not_in_race": ()},
    "R22": {
        "value_only_for_zero_five": (),
        "zero_five_used": (),
        "zero_five_tank_full": (),
        "zero_five_nothing_removed": (),
        "zero_five_in_trick": (),
        "zero_five_value": (),
        "zero_five_needs_lap": (),
        "zero_five_with_card": (),
        "zero_five_choose_discard": (),
        "discard_not_in_hand": ("suit",),
        "zero_five_value_not_integer": (),
    },
}
"""Every refusal code with its parameters' names, by the id of its rule in docs/rules.md
(``None``: the input is not an action at all)."""

#: Each code's rule id and parameter names, read off :data:`REASONS`.
RULE_OF: dict[str, tuple[str | None, tuple[str, ...]]] = {
    code: (rule, params) for rule, codes in REASONS.items() for code, params in codes.items()
}


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refusal: its ``code``, its ``rule`` id (``None`` for malformed input) and the
    ``(name, value)`` pairs of its ``params`` (suits by their id)."""

    code: str
    rule: str | None = None
    params: tuple[tuple[str, str | int], ...] = ()

    @classmethod
    def of(cls, code: str, **params: str | int) -> Refusal:
        """The refusal ``code`` of :data:`REASONS` with ``params`` (``KeyError`` for a code
        or parameters the table does not name)."""
        rule, names = RULE_OF[code]
        if tuple(params) != names:
            raise KeyError(f"{code} takes {names}, not {tuple(params)}")
        return cls(code, rule, tuple(params.items()))

    def as_dict(self) -> dict[str, str | int]:
        """The parameters by name."""
        return dict(self.params)

    def as_json(self) -> dict[str, str | int | None]:
        """The refusal as the API sends it: its code, its rule and its parameters."""
        return {"code": self.code, "rule": self.rule, **self.as_dict()}


class IllegalAction(ValueError):
    """Raised for any action the rules do not allow, or that is not an action at all;
    ``refusal`` says why (``str()`` of the exception is its code, for logs)."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.code)
        self.refusal = refusal
