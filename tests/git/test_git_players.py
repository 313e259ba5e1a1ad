"""What players do and see: their view decrypted with their own SSH or age key (and nobody else's), views by mail
for players without a key, diffs in game terms, the pre-commit hooks, and every wrong use refused plainly."""
from __future__ import annotations

import mailbox
import os
import subprocess
import sys
from pathlib import Path

import yaml

from gitkit import git, plan, ssh_key
from pbem.engine import engine
from pbem.git import keys, layout, textconv
from pbem.store import yamlio
from support import Pbem

SEED = "players-seed"
REPO = Path(__file__).resolve().parents[2]


def test_each_view_opens_with_its_players_key_only_ed25519_rsa_or_age(club, tmp_path):
    game = club("coal-baron", 3, seed=SEED)
    # carol's key is an age key, bob's an RSA key: a second game with those
    rsa = ssh_key(game.keys_dir, "bob", "rsa")
    secret, recipient = keys.new_identity()
    age_file = tmp_path / "carol.age"
    age_file.write_text(f"# carol's age key\n{secret}\n")
    (tmp_path / "carol.age.pub").write_text(recipient + "\n")
    pbem = Pbem()
    other = tmp_path / "mixed-keys"
    result = pbem("git", "init", "coal-baron", other, "--player", "alice", "--player", "bob", "--player", "carol",
                  "--key", f"alice={game.keys['alice']}.pub", "--key", f"bob={rsa}.pub",
                  "--key", f"carol={tmp_path / 'carol.age.pub'}", "--referee-dir", tmp_path / "ref2", "--seed", SEED)
    assert result.code == 0, result.err
    plain = tmp_path / "ref2" / "mixed-keys" / "views"
    for name, identity in (("alice", game.keys["alice"]), ("bob", rsa), ("carol", age_file)):
        shown = pbem("git", "view", other, "--as", name, "--identity", identity, "--format", "json")
        assert shown.code == 0, shown.err
        view = shown.json()["view"]
        assert view["private"]["player"] == name
        assert view == yamlio.load_file(plain / f"{name}.yaml")["view"]  # the referee's own plain copy
        text = pbem("git", "view", other, "--as", name, "--identity", identity)
        assert f"view of {name}" in text.out
        page = pbem("git", "view", other, "--as", name, "--identity", identity, "--format", "html")
        assert page.code == 0 and "<svg" in page.out and f"For {name} only: money" in page.out  # their picture
    assert "For alice only" not in (other / "board.svg").read_text()  # the public picture in the repository
    wrong = pbem("git", "view", other, "--as", "alice", "--identity", rsa)
    assert wrong.code == 2 and "cannot decrypt" in wrong.err
    assert pbem("git", "view", other, "--as", "zed", "--identity", rsa).code == 2


def test_a_player_without_a_key_gets_the_view_by_mail(club, tmp_path):
    game = club("coal-baron", 3, seed=SEED, keyless=("bob",))
    config = yamlio.load_file(game.dir / layout.CONFIG)
    assert [p["view"] for p in config["players"]] == ["encrypted", "mail", "encrypted"]
    assert not (game.dir / "views/bob.yaml.age").exists()
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    assert game.move(player, "; ".join(moves)).code == 0
    outbox = tmp_path / "outbox"
    run = game.referee("--outbox", outbox)
    assert run["mailed"] == ["bob@club.example"]
    (message,) = [mailbox.MaildirMessage(m) for m in mailbox.Maildir(outbox, create=False)]
    body = message.get_payload(decode=True).decode()
    assert message["To"] == "bob@club.example" and "view of bob" in body and game.secrets["bob"] not in body
    # without a way to mail, the position is still committed, and the referee says who missed their view
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=2)[0][1:]
    assert game.move(player, "; ".join(moves)).code == 0
    run = game.referee()
    assert run["commit"] and "bob get their view by mail" in run["warning"]
    # a mail server that fails: the position is committed and pushed, the view kept for `pbem mail resend`
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=3)[0][2:]
    assert game.move(player, "; ".join(moves)).code == 0
    run = game.referee("--smtp", "127.0.0.1:1")
    assert run["commit"] and run["pushed"] and run["mailed"] == [] and "pbem mail resend" in run["warning"]
    unsent = game.referee_dir / ".pbem-mail" / "unsent"
    (kept,) = [mailbox.MaildirMessage(m) for m in mailbox.Maildir(unsent, create=False)]
    assert kept["To"] == "bob@club.example"


def test_diffs_of_the_state_files_are_in_game_terms(club, monkeypatch):
    game = club("coal-baron", 3, seed=SEED)
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    assert game.move(player, "; ".join(moves)).code == 0
    game.referee()
    # git log -p, with the driver `pbem git init` configured in the organiser's clone
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    shown = git(game.dir, "log", "-p", "-1", "--", "log.yaml")
    assert f"+#1 {player}: {moves[0]}" in shown  # the log, one line a move
    result = game.pbem("git", "diff", game.dir, "HEAD~1", "HEAD", "--path", "public.yaml")
    assert result.code == 0
    assert "-To act:" in result.out and "+To act:" in result.out  # the report's lines, not YAML keys
    added = [line for line in result.out.splitlines() if line.startswith("+")]
    assert any(player in line and moves[0] in line for line in added)  # the move in the report's last moves
    view = textconv.convert(game.dir / f"views/{player}.yaml.age")
    assert view.startswith("(encrypted")  # without the key: its digest, so a change still shows
    monkeypatch.setenv("PBEM_IDENTITY", str(game.keys[player]))
    assert f"view of {player}" in textconv.convert(game.dir / f"views/{player}.yaml.age")


def test_pbem_git_move_refuses_what_the_referee_would(club):
    game = club("coal-baron", 3, seed=SEED)
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    other = next(name for name in game.names if name != player)
    result = game.move(other, moves[0], push=False)
    assert result.code == 2 and "turn" in result.err
    result = game.pbem("git", "move", game.clones[player], "--as", player, "--text", moves[0])
    assert result.code == 1 and "secret" in result.err  # no secret, no SSH signing set up
    result = game.move(player, "fly to the moon", push=False)
    assert result.code == 2
    assert git(game.clones[player], "status", "--porcelain") == ""  # nothing written
    result = game.pbem("git", "move", game.clones[player], "--as", "zed", "--text", "pass",
                       "--secret-file", game.secret_files[player])
    assert result.code == 2 and "does not play" in result.err


def test_ssh_signed_commits_replace_the_secret(club):
    game = club("coal-baron", 3, seed=SEED, ssh_signing=("alice", "bob", "carol"))
    submissions, _ = plan("coal-baron", game.names, SEED, game.dir.name, limit=3)
    number, player, moves = submissions[0]
    result = game.move(player, "; ".join(moves))
    assert result.code == 0 and result.json()["signed"] == "commit (SSH)"
    assert "signature" not in (game.clones[player] / result.json()["file"]).read_text()
    assert game.referee()["commits"][0]["verdict"] == "accepted"
    # an unsigned file in a commit signed with another player's key is refused
    number, player, moves = submissions[1]
    impostor = next(name for name in game.names if name != player)
    clone = game.clones[impostor]
    game.pull(impostor)
    from pbem.play import movefile
    (clone / "moves").mkdir(exist_ok=True)
    (clone / f"moves/{number:04d}-{player}.yaml").write_text(
        movefile.dumps(movefile.build(game.dir.name, number, player, moves)))
    git(clone, "add", "moves")
    git(clone, "commit", "--quiet", "-S", "-m", "signed by the wrong key")
    git(clone, "push", "--quiet")
    run = game.referee()
    assert run["commits"][0]["verdict"] == "refused" and "not signed" in run["commits"][0]["reason"]


def test_init_refuses_bad_input_and_leaves_nothing(tmp_path):
    pbem = Pbem()
    key = ssh_key(tmp_path, "alice")
    target = tmp_path / "new-game"
    base = ["git", "init", "coal-baron", target, "--referee-dir", tmp_path / "ref", "--player", "alice",
            "--player", "bob:bob@club.example"]
    cases = [
        (["--key", f"alice={key}"], 2, "not an SSH public key"),  # the private key given by mistake
        (["--key", f"carol={key}.pub"], 1, "who does not play"),
        (["--key", "alice"], 1, "NAME=PUBLIC-KEY-FILE"),
        (["--key", f"alice={tmp_path / 'missing.pub'}"], 2, "cannot read"),
        (["--player", "carol"], 1, "neither a key"),
        (["--key", f"alice={key}.pub", "--option", "colour=red"], 1, "no option"),
    ]
    for extra, code, words in cases:
        result = pbem(*base, *extra)
        assert result.code == code and words in result.err, (extra, result.err)
        assert not target.exists() and not (tmp_path / "ref" / "new-game").exists()
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "README").write_text("mine")
    result = pbem("git", "init", "coal-baron", taken, "--player", "alice", "--player", "bob",
                  "--key", f"alice={key}.pub", "--key", f"bob={key}.pub", "--referee-dir", tmp_path / "ref")
    assert result.code == 1 and "not empty" in result.err and (taken / "README").read_text() == "mine"


def test_commands_outside_a_game_repository_fail_plainly(tmp_path):
    pbem = Pbem()
    for args in (["git", "verify", tmp_path], ["git", "referee", tmp_path, "--referee-dir", tmp_path],
                 ["git", "view", tmp_path, "--as", "alice", "--identity", tmp_path / "x"]):
        result = pbem(*args)
        assert result.code in (1, 2) and result.err, args


def test_the_pre_commit_hooks_check_move_and_state_files(club, monkeypatch):
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    by_id = {hook["id"]: hook for hook in hooks}
    assert set(by_id) == {"pbem-check-move", "pbem-check-state"}
    assert by_id["pbem-check-move"]["entry"] == "pbem git check-move"
    assert by_id["pbem-check-state"]["entry"] == "pbem git check-state"
    game = club("coal-baron", 3, seed=SEED)
    monkeypatch.chdir(game.dir)
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    Path("moves").mkdir()
    Path(f"moves/0001-{player}.yaml").write_text(game.signed_move_text(player, 1, moves))
    Path("moves/0001-zed.yaml").write_text(game.signed_move_text(player, 1, moves))
    Path("moves/0002-alice.yaml").write_text("return top o1 o2\n")
    pbem = Pbem()
    assert pbem("git", "check-move", f"moves/0001-{player}.yaml").code == 0
    result = pbem("git", "check-move", "moves/0001-zed.yaml", "moves/0002-alice.yaml")
    assert result.code == 2 and "0001-zed" in result.err and "0002-alice" in result.err
    states = ["public.yaml", "log.yaml", "game.yaml", "components.yaml", layout.CONFIG, layout.REFUSED]
    assert pbem("git", "check-state", *states).code == 0
    Path("public.yaml").write_text(Path("public.yaml").read_text().replace("move_number: 1", "move_number: -1"))
    result = pbem("git", "check-state", "public.yaml")
    assert result.code == 2 and "move_number" in result.err


def pre_commit(clone: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    """pre-commit (the test extra installs it) in a player's clone, calling the pbem installed beside Python."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "PRE_COMMIT_HOME": str(home / "pre-commit")}
    return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=clone, env=env, capture_output=True,
                          text=True)


def test_the_game_repositorys_pre_commit_hooks_stop_a_bad_move_on_a_players_clone(club, git_home, monkeypatch):
    game = club("coal-baron", 3, seed=SEED)
    clone = game.clones["bob"]
    assert (clone / layout.PRE_COMMIT).read_text() == layout.PRE_COMMIT_CONFIG  # in the referee's first commit
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    (clone / "moves").mkdir()
    good = f"moves/0001-{player}.yaml"
    (clone / good).write_text(game.signed_move_text(player, 1, moves))
    passed = pre_commit(clone, git_home, "run", "--files", good)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "pbem move files" in passed.stdout and "Passed" in passed.stdout
    (clone / "moves/0001-zed.yaml").write_text(game.signed_move_text(player, 1, moves))  # named for another
    (clone / "moves/0002-alice.yaml").write_text("move_number: [\n")
    (clone / "notes.txt").write_text("not a move\n")
    stopped = pre_commit(clone, git_home, "run", "--files", "moves/0001-zed.yaml", "moves/0002-alice.yaml",
                         "notes.txt")
    assert stopped.returncode == 1, stopped.stdout + stopped.stderr
    assert f"moves/0001-zed.yaml: the file says move 1 of {player}; its name must say the same" in stopped.stdout
    assert "moves/0002-alice.yaml: not valid YAML" in stopped.stdout
    assert "and nothing else; the referee refuses these:\n\nnotes.txt" in stopped.stdout
    # installed as the clone's hook, it lets `pbem git move` commit an honest move
    for name in ("moves/0001-zed.yaml", "moves/0002-alice.yaml", "notes.txt", good):
        (clone / name).unlink()
    clone = game.clones[player]
    assert pre_commit(clone, git_home, "install").returncode == 0
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("PRE_COMMIT_HOME", str(git_home / "pre-commit"))
    assert game.move(player, "; ".join(moves), push=False).code == 0
    assert git(clone, "show", "--name-only", "--format=", "HEAD").split() == [good]


def test_pbem_git_move_push_puts_the_move_on_what_was_pushed_meanwhile_and_keeps_its_signature(club):
    game = club("coal-baron", 3, seed=SEED, ssh_signing=("alice", "bob", "carol"))
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    other = next(name for name in game.names if name != player)
    game.pull(player)
    game.commit_file(other, "notes.txt", "pushed first\n")  # the mover's clone is now behind the remote
    result = game.pbem("git", "move", game.clones[player], "--as", player, "--text", "; ".join(moves), "--push",
                       "--format", "json")
    assert result.code == 0, result.err
    assert result.json()["pushed"]
    run = game.referee()
    assert [c["verdict"] for c in run["commits"]] == ["refused", "accepted"]  # signed still, after the rebase


def test_pbem_git_moves_lists_the_legal_moves_of_the_player_to_act_as_the_referee_has_them(club):
    game = club("coal-baron", 3, seed=SEED)
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    other = next(name for name in game.names if name != player)
    referee_view = engine.legal(engine.open_game(game.game_dir()), player)
    game.pull(player)
    shown = game.pbem("git", "moves", game.clones[player], "--as", player, "--identity", game.keys[player],
                      "--format", "json")
    assert shown.code == 0, shown.err
    assert shown.json()["choices"] == referee_view["choices"] and shown.json()["to_act"] == player
    text = game.pbem("git", "moves", game.clones[player], "--as", player, "--identity", game.keys[player]).out
    assert all(choice["move"] in text for choice in referee_view["choices"]) and "resign" in text
    idle = game.pbem("git", "moves", game.clones[other], "--as", other, "--identity", game.keys[other])
    assert idle.code == 0 and "has no move now" in idle.out
    # only the player to act has the file, readable by them alone
    assert [p.name for p in (game.dir / "views").glob("*.moves.yaml.age")] == [f"{player}.moves.yaml.age"]
    wrong = game.pbem("git", "moves", game.clones[player], "--as", player, "--identity", game.keys[other])
    assert wrong.code == 2 and "cannot decrypt" in wrong.err
    assert game.move(player, "; ".join(moves)).code == 0
    game.referee()
    after = engine.status(engine.open_game(game.game_dir()))["to_act"]
    assert [p.name for p in (game.dir / "views").glob("*.moves.yaml.age")] == [f"{after}.moves.yaml.age"]


def test_pbem_git_move_refuses_an_illegal_first_step_with_the_legal_moves(club):
    game = club("coal-baron", 3, seed=SEED)
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    game.pull(player)
    legal = engine.legal(engine.open_game(game.game_dir()), player)
    illegal = next(text for text in ("draft o99", "place mining-1", "end") if text not in legal["moves"])
    result = game.pbem("git", "move", game.clones[player], "--as", player, "--text", illegal, "--identity",
                       game.keys[player], "--secret-file", game.secret_files[player])
    assert result.code == 2, result.out
    assert "not legal now" in result.err and legal["choices"][0]["move"] in result.err
    assert git(game.clones[player], "status", "--porcelain") == ""
    assert git(game.clones[player], "rev-list", "--count", "@{upstream}..HEAD").strip() == "0"


def test_a_refused_player_is_named_in_the_commit_message_and_told_by_mail(club, tmp_path):
    game = club("coal-baron", 3, seed=SEED, addresses=("alice", "bob", "carol"))
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    other = next(name for name in game.names if name != player)
    git(game.clones[player], "config", "user.email", f"{player}@club.example")
    game.commit_file(player, "public.yaml", "move_number: 99\n", "cheat")  # refused: the author's address
    game.commit_file(other, f"moves/{number:04d}-{other}.yaml", game.signed_move_text(other, number, moves))
    outbox = tmp_path / "outbox"
    run = game.referee("--outbox", outbox)
    assert [c["verdict"] for c in run["commits"]] == ["refused", "refused"]
    message = git(game.dir, "log", "-1", "--format=%B")
    assert f"({player}): it changes public.yaml" in message and f"({other}): moves/" in message
    mails = {m["To"]: m for m in (mailbox.MaildirMessage(m) for m in mailbox.Maildir(outbox, create=False))}
    assert set(mails) == {f"{player}@club.example", f"{other}@club.example"}
    to_act = mails[f"{player}@club.example"].get_payload(decode=True).decode()
    assert "public.yaml" in to_act and "Your legal moves now" in to_act and "pbem git move" in to_act
    idle = mails[f"{other}@club.example"].get_payload(decode=True).decode()
    assert "turn" in idle and "Your legal moves" not in idle
    for body in (to_act, idle):
        assert not any(secret in body for secret in game.secrets.values())


def test_a_player_without_a_key_gets_the_legal_moves_with_the_view_when_to_act(club, tmp_path):
    game = club("coal-baron", 3, seed=SEED, keyless=("alice", "bob", "carol"))
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=2)[0][1:]
    first = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0][0]
    assert game.move(first[1], "; ".join(first[2])).code == 0
    outbox = tmp_path / "outbox"
    game.referee("--outbox", outbox)
    mails = {m["To"]: m.get_payload(decode=True).decode()
             for m in (mailbox.MaildirMessage(m) for m in mailbox.Maildir(outbox, create=False))}
    assert "Your legal moves now" in mails[f"{player}@club.example"]
    assert all("Your legal moves" not in body for to, body in mails.items() if to != f"{player}@club.example")
