"""`python -m pbem`: the pbem command, where its console script is not installed (an environment that reaches
pbem through another one's packages)."""
from .console import run

run()
