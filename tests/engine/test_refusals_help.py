"""Every refusal helps: a misspelt move gets the nearest legal moves ("did you mean") and the moves legal now
rather than the game's whole grammar; a move not legal now says why — the values its word takes now (the generic
layer), or the game's own reason from the mover's view (La Fièvre de l'Or: "you hold 10 gold") — and the decision
in words; a move out of turn names the decision in words too, never by its internal name."""
from __future__ import annotations

import yaml

from support import NAMES


def gold_fever(tmp_path, pbem):
    """A new game of La Fièvre de l'Or: alice opens the first auction, holding 10 gold (bids of 1 to 10)."""
    args = ["new", "gold-fever", tmp_path / "gf", "--seed", "refuse"]
    for name in NAMES[:3]:
        args += ["--player", name]
    assert pbem(*args).code == 0
    return tmp_path / "gf"


def test_a_misspelt_move_gets_the_nearest_legal_moves_not_the_grammar(tmp_path, pbem):
    game = gold_fever(tmp_path, pbem)
    said = pbem("move", game, "--as", "alice", "--text", "bod 5")
    assert said.code == 2
    assert said.err == ("pbem: 'bod 5' is not a move of La Fièvre de l'Or. Did you mean 'bid 1..10'? Legal now: "
                        "pass, bid 1..10.\n")


def test_a_bid_beyond_the_bidders_gold_says_what_they_hold(tmp_path, pbem):
    game = gold_fever(tmp_path, pbem)
    said = pbem("move", game, "--as", "alice", "--text", "bid 20")
    assert said.code == 2 and "'bid 20' is not legal now: you hold 10 gold, and a bid is never more" in said.err
    assert "Your decision: bid more than the highest bid" in said.err and "bid_for_lot" not in said.err
    assert said.err.rstrip().endswith("Legal now: pass, bid 1..10.")
    french = pbem("move", game, "--as", "alice", "--text", "bid 20", "--language", "fr")  # the game's reason too
    assert french.code == 2 and "vous avez 10, et une enchère ne dépasse jamais votre or" in french.err


def test_a_value_out_of_range_is_told_the_values_its_word_takes_now(monkeypatch):
    from pbem.play import refusals
    from pbem.store import registry
    game = registry.get("gold-fever")
    monkeypatch.delattr(game.report, "explain_refusal")  # without the game's own reason, the generic layer speaks
    legal = [{"action": "pass"}, {"action": "bid", "amount": 4}, {"action": "bid", "amount": 5},
             {"action": "bid", "amount": 6}]
    assert str(refusals.why_not(game, "bid 20", legal, None, None)) == "bid takes 4 to 6 now"
    assert str(refusals.why_not(game, "take 3", legal, None, None)) == "no take move is legal now"
    assert str(refusals.why_not(game, "pass 3", legal, None, None)) == \
        "pass is legal now without a value: write pass alone"
    assert str(refusals.values_phrase(["o17", "o05", "o23"])) == "o17, o05 or o23"


def test_a_move_out_of_turn_names_the_decision_in_words(tmp_path, pbem):
    game = gold_fever(tmp_path, pbem)
    said = pbem("move", game, "--as", "bob", "--text", "pass")
    assert said.code == 2 and "it is alice's turn (bid more than the highest bid" in said.err
    assert "bid_for_lot" not in said.err


def test_a_stale_move_and_a_bad_signature_say_what_to_do_next(tmp_path, pbem):
    game = gold_fever(tmp_path, pbem)
    assert pbem("move", game, "--as", "alice", "--text", "pass", "--move-number", "1").code == 0
    stale = pbem("move", game, "--as", "bob", "--text", "pass", "--move-number", "1")
    assert stale.code == 2 and "Read the position now (pbem status, or the last mail) and send a move for move 2" \
        in " ".join(stale.err.split())
    roster = yaml.safe_load((game / "referee" / "secrets.yaml").read_text())["players"]
    secrets = {p["name"]: p["secret"] for p in roster}
    signed = pbem("sign", "--secret", secrets["bob"], "--game", "gf", "--move-number", "2", "--as", "bob",
                  "--text", "pass")
    assert signed.code == 0, signed.err
    edited = tmp_path / "turn.yaml"
    edited.write_text(signed.out.replace("- pass", "- bid 3"))
    bad = pbem("move", game, edited, "--as", "bob")
    assert bad.code == 2 and "must be signed again: pbem sign FILE" in " ".join(bad.err.split())
