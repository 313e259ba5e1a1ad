"""La Fièvre de l'Or (Cathala & Faidutti, 2004): its decisions, by the names of meta.yaml `decisions`, each one's
legal moves and their effect (pbem.decisions.Handler), and the automatic steps between decisions (`advance`:
payment, dice, production, the next turn) until a player must decide or the game is over. pbem builds the
engine's contract from this table, setup.py, views.py and scoring.py.

The turn (the French rules): reveal as many cards as players, auction (bid higher or pass), payment down the table,
card choice from the winner leftwards (concessions pay the mayor's fee, events act), the winner rolls two dice
and every concession with that number produces its nuggets in gold. The game ends with the roll of the turn
that empties the deck. Rulings and their reasons are in rules.md; `ruling:` comments point at them.

Seats are the player list in clockwise order: a player's LEFT neighbour is the next seat (the card choice and the
auction go that way), the RIGHT neighbour the previous one (the payment goes that way).
"""
from __future__ import annotations

from pbem.decisions import Handler

from .phases import auction, choice, events, production, turn

HANDLERS = {
    "bid_for_lot": Handler(auction.legal_bid, auction.bid_for_lot),
    "choose_card": Handler(choice.legal_choose_card, choice.choose_card),
    "ride_mustang": Handler(choice.legal_ride_mustang, choice.ride_mustang),
    "send_telegraph": Handler(production.legal_telegraph, production.send_telegraph),
    "light_dynamite": Handler(events.legal_dynamite, events.light_dynamite),
    "expropriate_concession": Handler(events.legal_expropriation, events.expropriate_concession),
    "aim_holdup": Handler(events.legal_holdup, events.aim_holdup),
    "build_saloon": Handler(events.legal_saloon, events.build_saloon),
    "place_saloon_girls": Handler(events.legal_girls, events.place_saloon_girls),
    "appoint_governor": Handler(events.legal_governor, events.appoint_governor),
    "stake_new_vein": Handler(events.legal_vein, events.stake_new_vein),
}

advance = turn.advance
