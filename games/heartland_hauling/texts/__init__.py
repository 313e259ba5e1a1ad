"""The game's words in the language being read (names.py), for its report and its picture."""
