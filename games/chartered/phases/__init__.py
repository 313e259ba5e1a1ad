"""Chartered's phases: a turn's decisions, building, founding and merging, money and shares, the board."""
