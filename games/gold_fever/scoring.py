"""La Fièvre de l'Or's score: gold, the nuggets on one's concessions, the Maire cards; the end of the game."""
from __future__ import annotations

from pbem.messages import NP_

from .phases.common import owned, production_value

# The lines of a final score, in English in the stored results (translated where shown: pbem.text.report). The
# Maire cards' line names their points: the French rules' 5 is translated; a club's own number stays in English.
GOLD, NUGGETS, MAIRES = NP_("score", "gold"), NP_("score", "nuggets on concessions"), NP_("score", "Maire cards")
MAIRE_POINTS = {5: NP_("score", "points for Maire cards (x5)")}


def is_over(state: dict) -> bool:
    """The game ends with the roll of the turn that emptied the deck (its state's phase is then `over`)."""
    return state["phase"] == "over"


def score_lines(state: dict, player: str, concessions: list[str] | None = None) -> dict:
    """The French rules: gold + the nuggets on one's concessions (+3 with a New Vein) + 5 per Maire card
    (`concessions`: the player's, when the caller has them)."""
    gold = state["gold"][player]
    concessions = owned(state, player) if concessions is None else concessions
    nuggets = sum(production_value(state, cid) for cid in concessions)
    maires = sum(1 for mayor in state["mayors"].values() if mayor == player)
    points = maires * state["points_per_maire"]
    return {"gold": gold, "nuggets": nuggets, "maires": maires, "maire_points": points,
            "total": gold + nuggets + points}


def result(state: dict) -> list[dict]:
    """Highest total wins. ruling: equal totals share the rank (neither edition gives a tie-break).
    `details` are the lines that add up to the score."""
    lines = {player: score_lines(state, player) for player in state["players"]}
    ranking = []
    for player in sorted(state["players"], key=lambda p: -lines[p]["total"]):
        better = sum(1 for other in state["players"] if lines[other]["total"] > lines[player]["total"])
        score = lines[player]
        ranking.append({"player": player, "score": score["total"], "rank": better + 1, "details": {
            GOLD: score["gold"], NUGGETS: score["nuggets"], MAIRES: score["maires"],
            maire_points_line(state["points_per_maire"]): score["maire_points"]}})
    return ranking


def estimate(state: dict) -> dict[str, float]:
    """Each player's worth for a search that stops before the end (pbem.search): the score as if the game ended
    now, plus what each concession is expected to produce in the turns left (a turn reveals a card a player from
    the deck; two dice make each number from 2 to 12 with chance (6 - |number - 7|) / 36)."""
    turns = len(state["deck"]) / len(state["players"])
    worth = {player: float(score_lines(state, player)["total"]) for player in state["players"]}
    for concession, owner in state["owners"].items():
        chance = (6 - abs(state["cards"][concession]["number"] - 7)) / 36
        worth[owner] += turns * chance * production_value(state, concession)
    return worth


def maire_points_line(points: int) -> str:
    return MAIRE_POINTS.get(points, f"points for Maire cards (x{points})")
