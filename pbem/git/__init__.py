"""Play by git: a game played through a git repository; players commit moves, the referee commits positions.

keys.py encrypts to players' SSH or age keys (views, hidden moves, the referee's archive); repo.py runs git;
layout.py writes the files a game repository carries besides the game's own (config, ignore and attribute
files, CI files); desk.py is the referee's side of a game (its game directory, its record of refereed commits);
judge.py decides what each new commit did; compose.py writes what a refereed commit holds; branches.py
fetches, joins and pushes the game's branch; runlock.py keeps the referee's runs one at a time; start.py
(`pbem git init`), referee.py, player.py, verify.py (with signatures.py) and textconv.py are the commands; the
`pbem git` command group is pbem.cli.git. docs/git.md is the guide.
"""
