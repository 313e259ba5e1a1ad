"""Chartered's queue words (meta.yaml `queues:`): the conditions and the event that disarms a standing order.
Everything but the hands and the deck is public; a hand is read from its owner's view only, never the state."""
from __future__ import annotations


def _company(view: dict, company: str) -> dict | None:
    """A company by its id or its code (the reports print the code: `gld` is `gold`)."""
    return next((c for c in view["companies"] if company in (c["id"], c["code"].lower())), None)


def price(view: dict, company: str, amount: int) -> bool:
    """A share of a founded company costs at most `amount` to buy."""
    found = _company(view, company)
    return bool(found and found["founded"] and found["buying_price"] <= amount)


def holds(view: dict, player: str, card: str) -> bool:
    return view["private"]["player"] == player and card in view["private"]["hand"]


def market(view: dict, card: str) -> bool:
    return card in view["market"]


def money(view: dict, player: str, amount: int) -> bool:
    return any(p["name"] == player and p["money"] >= amount for p in view["players"])


def founded(view: dict, company: str) -> bool:
    found = _company(view, company)
    return bool(found and found["founded"])


def merger(view: dict) -> dict | None:
    return view["last_merger"]


def turn(view: dict) -> int:
    """The turn under way: its number (a player's card, building, founding, merger and trades all in it)."""
    return view["turn"]["number"]


def names(view: dict, move: dict) -> dict:
    """A company written by the code every report prints (`buy share gld`) is its id (`gold`), as the log records it;
    other words stay as they are."""
    if "company" not in move:
        return move
    ids = {c["code"].lower(): c["id"] for c in view["companies"]}
    named = move["company"]
    return {**move, "company": [ids.get(word, word) for word in named] if isinstance(named, list)
            else ids.get(named, named)}
