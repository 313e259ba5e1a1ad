"""How examples/git/club-game.bundle was made: a 3-player Coal Baron played to the end by bots through git.

A bare remote, one clone per player and the referee's clone; carol signs her commits with her SSH key, alice and
bob sign their move files with their secrets; each player commits their moves and pushes, the referee runs
after every few moves and pushes the position. The players' keys were made for this and thrown away, so the
views in the bundle can be read by nobody; the game is over, so its seed and the secrets are revealed and
`pbem git verify` checks everything. Re-run only with a rules_version change:

    python examples/git/make_example.py
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from pbem.git.player import commit_move, move_file, published
from pbem.git.repo import Repo
from pbem.play import playout
from pbem.store import registry

HERE = Path(__file__).resolve().parent
PLAYERS = ["alice", "bob", "carol"]
SEED, BOTS, REFEREE_EVERY = "example-club", "example-bots", 6


# the referee's commits carry a name of the example, not the git identity of the machine that made it
REFEREE = {f"GIT_{role}_{part}": value for role in ("AUTHOR", "COMMITTER")
           for part, value in (("NAME", "referee"), ("EMAIL", "referee@example"))}


def run(*args, cwd=None, env=None) -> str:
    return subprocess.run([str(a) for a in args], cwd=cwd, check=True, capture_output=True, text=True,
                          env={**os.environ, **env} if env else None).stdout


def main() -> None:
    pbem = Path(sys.executable).with_name("pbem")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        keys, key_args = root / "keys", []
        keys.mkdir()
        for name in PLAYERS:
            run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", f"{name}@example", "-f", keys / name)
            key_args += ["--key", f"{name}={keys / name}.pub"]
        game = root / "club-game"
        players = [arg for name in PLAYERS for arg in ("--player", name)]
        created = json.loads(run(pbem, "git", "init", "coal-baron", game, *players, *key_args, "--seed", SEED,
                                 "--referee-dir", root / "referee", "--format", "json", env=REFEREE))
        secrets = {p["name"]: p["secret"] for p in created["players"]}
        remote = root / "remote.git"
        run("git", "init", "--quiet", "--bare", "-b", "main", remote)
        run("git", "-C", game, "remote", "add", "origin", remote)
        run("git", "-C", game, "push", "--quiet", "-u", "origin", "main")
        clones = {name: root / name / "club-game" for name in PLAYERS}
        for name, clone in clones.items():
            run("git", "clone", "--quiet", remote, clone)
            run("git", "-C", clone, "config", "user.name", name)
            run("git", "-C", clone, "config", "user.email", f"{name}@example")
        run("git", "-C", clones["carol"], "config", "gpg.format", "ssh")
        run("git", "-C", clones["carol"], "config", "user.signingkey", f"{keys / 'carol'}.pub")
        gd, _, config = published(Repo(game), "HEAD")
        submissions, _ = playout.turns(registry.get("coal-baron"), PLAYERS, seed=SEED, bot_seed=BOTS,
                                       game_id=game.name)
        previous = None
        for index, (number, player, moves) in enumerate(submissions, 1):
            clone = clones[player]
            if player != previous:
                if previous:
                    run("git", "-C", clones[previous], "push", "--quiet")
                run("git", "-C", clone, "pull", "--quiet", "--rebase")
            ssh = player == "carol"
            relative, data, _ = move_file(gd, config, number, player, moves, None if ssh else secrets[player])
            commit_move(Repo(clone), relative, data, f"move {number} by {player}", signing=ssh)
            previous = player
            if index % REFEREE_EVERY == 0 or index == len(submissions):
                run("git", "-C", clone, "push", "--quiet")
                previous = None
                run(pbem, "git", "referee", game, "--referee-dir", root / "referee", "--remote", "origin",
                    env=REFEREE)
        out = HERE / "club-game.bundle"
        # HEAD too: a clone of the bundle checks out main (without it git finds no HEAD and checks out nothing)
        run("git", "-C", remote, "bundle", "create", out, "HEAD", "main")
        print(f"{out}: {len(submissions)} moves, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
