"""Coal Baron (Kiesling & Kramer, 2013)."""
