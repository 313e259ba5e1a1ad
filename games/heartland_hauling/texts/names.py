"""The Great Heartland Hauling Co.'s words in the language being read, for its report and its picture: its
messages (locale/, domain `heartland_hauling`) and the names glossary.yaml gives its goods, places, upgrades, road
features and the notation's words (docs/translating.md)."""
from __future__ import annotations

from pbem.messages import NP_, Domain, current, joined

T = Domain("heartland_hauling")
_, ngettext, pgettext = T.gettext, T.ngettext, T.pgettext


def named(kind: str, thing: str, printed: str | None = None) -> str:
    """A term's name in the language being read (`-` read as a space: `Trémie à grain`); where the glossary has no
    other name than the id (English, a club's own card), the name the components print, else the id."""
    name = T.term(kind, thing)
    if name == thing:
        return printed or thing
    return name.replace("-", " ")


def good_name(good: str) -> str:
    return named("good", good)


def location_name(loc: dict) -> str:
    return named("location", loc["id"], loc["name"])


def centre_name(view: dict) -> str:
    """The centre's name: the view gives only the name it prints, whose id is that name in lower case with `-`
    for spaces, as every card's in components.yaml (West Morgan, west-morgan)."""
    printed = view["centre"]["name"]
    return named("location", printed.lower().replace(" ", "-"), printed)


def upgrade_title(upgrade: dict) -> str:
    return named("upgrade", upgrade["id"], upgrade["name"])


def feature_name(view: dict, feature: str) -> str:
    return named("feature", feature, view["road_features"][feature]["name"])


def dollars(amount: int) -> str:
    """An amount of money as the reader writes it ($3, 3 $, 3 元)."""
    return _("${amount}", amount=amount)


def cards_shown(cards) -> str:
    """Cards as the notation names them, in the reader's words (`carburant-1`, `玉米`)."""
    return joined(T.words(card) for card in cards)


def upgrade_text(upgrade: dict) -> str:
    """What an upgrade does once a turn: the components' own words in English (a club's may differ), its effect's
    message in another language."""
    if current() is None:
        return upgrade["text"]
    effect, amount = upgrade["effect"], upgrade["amount"] or 0
    if effect == "free-spaces":
        return ngettext("pay for one space less (a 1-space move is free)",
                        "pay for {count} spaces less (a move of {count} spaces or fewer is free)", amount, count=amount)
    if effect in ("free-load", "free-unload"):
        if effect == "free-load":
            return ngettext("load one crate without a freight bill", "load {count} crates without a freight bill",
                            amount, count=amount)
        return ngettext("unload one crate without a freight bill", "unload {count} crates without a freight bill",
                        amount, count=amount)
    if effect == "extra-capacity":
        return ngettext("your truck holds {count} crate more", "your truck holds {count} crates more", amount,
                        count=amount)
    if effect == "unload-bonus":
        return _("+${amount} a crate of {goods} unloaded", amount=amount, goods=either(upgrade["goods"]))
    if effect == "hand-size":
        return ngettext("hold {count} card more in your hand", "hold {count} cards more in your hand", amount,
                        count=amount)
    return T.stored(EFFECTS.get(effect, upgrade["text"]), "effect")


# The effects with no number in their words (components.yaml `truck_stops`, rules.md "Truck-stop upgrades")
EFFECTS = {"discard-pick": NP_("effect", "take one card from the discard pile when refilling"),
           "share-space": NP_("effect", "stop at a location where another truck is parked"),
           "mixed-payment": NP_("effect", "pay a move with fuel cards and cash together"),
           "native-rate": NP_("effect", "load any good at 1 freight bill a crate"),
           "free-discard": NP_("effect", "the discard action costs nothing")}


def either(goods: list[str]) -> str:
    """`cattle or pigs`: the goods an upgrade's bonus is for."""
    names = [good_name(good) for good in goods]
    if len(names) < 2:
        return joined(names)
    return _("{goods} or {last}", goods=joined(names[:-1]), last=names[-1])
