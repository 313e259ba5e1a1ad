"""The Great Heartland Hauling Co.'s phases: a turn's course, driving and paying, actions at a location, refilling
the hand, the end; the board and what they share."""
