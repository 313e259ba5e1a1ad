"""Summit Race's phases: a climber's turn (turn.py) and the deck they draw from (deck.py)."""
