"""pbem: a command-line referee for board games played by correspondence."""
__version__ = "0.1.0"
