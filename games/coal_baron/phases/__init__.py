"""Coal Baron's phases: the order draft, shifts and turns, placing workers, tiles, mining."""
