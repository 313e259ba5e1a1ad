"""The cards: plot cards (their plot's number) and level cards (`level-2`, `level-3`), and a hand kept sorted."""
from __future__ import annotations

LEVEL_PREFIX = "level-"


def level_card(level: int) -> str:
    return f"{LEVEL_PREFIX}{level}"


def card_level(card: str) -> int | None:
    """The floor a level card adds (None for a plot card)."""
    return int(card[len(LEVEL_PREFIX):]) if card.startswith(LEVEL_PREFIX) else None


def sort_hand(cards: list[str]) -> list[str]:
    """A hand is kept sorted (plot cards by number, then level cards) so that its order tells nothing."""
    return sorted(cards, key=lambda card: (1, card_level(card)) if card_level(card) else (0, int(card)))
