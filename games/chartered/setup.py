"""Setting up a game: the components checked for consistency (a club may bring its own), then the starting state.

The released game's setup: starting hands are dealt from the plot cards only; the level cards and the remaining
plot cards are then shuffled into the deck, and the open market is drawn from it.
"""
from __future__ import annotations

from pbem.contract import PbemError
from pbem.messages import NP_

from .phases import turn
from .phases.board import draw_map
from .phases.cards import level_card, sort_hand


# --------------------------------------------------------------------------------------- consistency checks

def check_components(components: dict) -> None:
    """What the schema cannot say: every reference points at something that exists, adjacency is mutual, the
    stock board climbs. One PbemError lists every problem."""
    problems = []
    boards = {board["side"]: board for board in components["boards"]}
    colours = {deck["colour"]: deck for deck in components["cards"]}
    problems += duplicates("board side", [board["side"] for board in components["boards"]])
    problems += duplicates("card colour", [deck["colour"] for deck in components["cards"]])
    problems += duplicates("company id", [c["id"] for c in components["companies"]])
    problems += duplicates("company code", [c["code"] for c in components["companies"]])
    problems += duplicates("setup for players", [row["players"] for row in components["setup"]])
    for board in components["boards"]:
        problems += board_problems(board)
    for row in components["setup"]:
        problems += setup_problems(row, boards, colours)
    problems += stock_board_problems(components)
    if not components["companies"]:
        problems.append("there is no company to found")
    if problems:
        raise PbemError("components are not consistent:\n  " + "\n  ".join(problems))


def duplicates(what: str, values: list) -> list[str]:
    seen, repeated = set(), []
    for value in values:
        if value in seen and value not in repeated:
            repeated.append(value)
        seen.add(value)
    return [f"{what} {value} appears twice" for value in repeated]


def board_problems(board: dict) -> list[str]:
    side = board["side"]
    numbers = [plot["number"] for plot in board["plots"]]
    problems = duplicates(f"{side} side: plot", numbers)
    problems += duplicates(f"{side} side: map place (row, col)", [(p["row"], p["col"]) for p in board["plots"]])
    neighbours = {plot["number"]: plot["neighbours"] for plot in board["plots"]}
    for plot, touching in neighbours.items():
        for other in touching:
            if other == plot:
                problems.append(f"{side} side: plot {plot} lists itself as a neighbour")
            elif other not in neighbours:
                problems.append(f"{side} side: plot {plot} touches plot {other}, which is not on the board")
            elif plot not in neighbours[other]:
                problems.append(f"{side} side: plot {plot} touches {other} but {other} does not touch {plot}")
    return problems


def setup_problems(row: dict, boards: dict, colours: dict) -> list[str]:
    count, side = row["players"], row["side"]
    if side not in boards:
        return [f"{count} players: no board side {side!r}"]
    problems = []
    plots = {plot["number"] for plot in boards[side]["plots"]}
    plot_cards = 0
    for colour in row["cards"]:
        if colour not in colours:
            problems.append(f"{count} players: no {colour!r} cards")
            continue
        missing = sorted({n for n in colours[colour]["plots"] if n not in plots})
        if missing:
            problems.append(f"{count} players: {colour} cards name plots {', '.join(map(str, missing))}, which "
                            f"are not on the {side} side")
        plot_cards += len(colours[colour]["plots"])
    if plot_cards < count * row["hand"]:
        problems.append(f"{count} players: {plot_cards} plot cards cannot deal {count} hands of {row['hand']}")
    return problems


def stock_board_problems(components: dict) -> list[str]:
    steps = components["stock_board"]["steps"]
    problems = []
    for lower, upper in zip(steps, steps[1:]):
        if upper["value"] <= lower["value"] or upper["price"] < lower["price"]:
            problems.append(f"stock board: the step at {upper['value']} must come above {lower['value']} with a "
                            f"price no lower than {lower['price']}")
    if steps[0]["value"] > components["values"]["founding"]:
        problems.append(f"stock board: its first step ({steps[0]['value']}) is above a new company's value "
                        f"({components['values']['founding']}), which would have no share price")
    return problems


# --------------------------------------------------------------------------------------------------- setup

def cards_in_play(components: dict, row: dict) -> tuple[list[str], list[str]]:
    """The plot cards and the level cards of the colours this player count uses (the setup row)."""
    decks = [deck for deck in components["cards"] if deck["colour"] in row["cards"]]
    plot_cards = [str(number) for deck in decks for number in deck["plots"]]
    level_cards = [level_card(entry["level"]) for deck in decks for entry in deck["levels"]
                   for _ in range(entry["count"])]
    return plot_cards, level_cards


def deal(components: dict, row: dict, players: list[str], rng) -> tuple[dict, list[str], list[str]]:
    """Hands from the plot cards only; the rest of the plot cards and the level cards make the deck."""
    plot_cards, level_cards = cards_in_play(components, row)
    shuffled = rng.shuffle(plot_cards, what=NP_("chance", "plot cards shuffled for the starting hands"))
    hands = {}
    for seat, player in enumerate(players):
        hands[player] = sort_hand(shuffled[seat * row["hand"]:(seat + 1) * row["hand"]])
    rest = shuffled[len(players) * row["hand"]:]
    deck = rng.shuffle(rest + level_cards, what=NP_("chance", "deck shuffled"))
    return hands, deck[:row["market"]], deck[row["market"]:]


def setup(state: dict, components: dict, rng) -> None:
    """The state already holds the game's id, its rules version, the players and the options (pbem's)."""
    players = state["players"]
    check_components(components)
    row = next((r for r in components["setup"] if r["players"] == len(players)), None)
    if row is None:
        counts = ", ".join(str(r["players"]) for r in components["setup"])
        raise PbemError(f"these components set up games of {counts} players, not {len(players)}")
    board = next(b for b in components["boards"] if b["side"] == row["side"])
    hands, market, deck = deal(components, row, players, rng)
    lines, links = draw_map(board["plots"])
    state.update({
        "side": row["side"],
        "map": lines,
        "links": links,
        "costs": dict(components["costs"], flags=list(components["costs"]["flags"]), market=row["market"]),
        "values": dict(components["values"]),
        "stock_board": [dict(step) for step in components["stock_board"]["steps"]],
        "companies": {c["id"]: {"name": c["name"], "goods": c["goods"], "code": c["code"], "value": 0,
                                "hq": None, "plots": {}, "shares": {}, "flag": None} for c in components["companies"]},
        "supply": row["warehouses"],
        "deck": deck,
        "market": market,
        "played": 0,
        "hands": hands,
        "money": {player: row["money"] for player in players},
        "bank": {"paid_out": 0, "taken_in": 0},
        "turn": None,
        "passes": 0,
        "last_merger": None,
        "stack": [],
        "over": False,
    })
    # ruling: the first player is drawn at random (the French rules do not say who starts).
    turn.begin_turn(state, rng.choice(list(players), what=NP_("chance", "first player"), public=True))
