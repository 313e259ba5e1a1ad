"""La Fièvre de l'Or's phases: a turn's course, the auction, the card choice, mayors, events, production."""
