"""The CI files `pbem git init` writes: their `run:` steps (GitHub) and `script:` lines (GitLab), taken from the YAML
and executed in a shell in a fresh checkout, against the bare remote, as the CI runner would after a push."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from gitkit import git, plan, ssh_key
from pbem.git import desk, keys, layout
from pbem.store import yamlio

SEED = "ci-seed"
REPO = Path(__file__).resolve().parents[2]


def github_steps(path: Path) -> list[str]:
    workflow = yaml.safe_load(path.read_text())
    (job,) = workflow["jobs"].values()
    return [step["run"] for step in job["steps"] if "run" in step]


def gitlab_steps(path: Path) -> list[str]:
    config = yaml.safe_load(path.read_text())
    (job,) = config.values()
    return job["script"]


def run_steps(steps: list[str], checkout: Path, env: dict, bin_dir: Path | None = None) -> None:
    """Each step in bash, in the checkout, as the runner gives it (the pushed commit in CI_COMMIT_SHA), with the CI
    secret set and the runner's Python (this environment's unless `bin_dir`) first on PATH: whichever way this
    test was started (a virtual environment activated or not), no other pbem is on PATH and no VIRTUAL_ENV says
    where one is."""
    sha = git(checkout, "rev-parse", "HEAD").strip()
    path = str(bin_dir or Path(sys.executable).parent) + os.pathsep + without_pbem()
    full_env = {**runner_environment(), **env, "CI_COMMIT_SHA": sha, "PATH": path}
    for step in steps:
        done = subprocess.run(["bash", "-eo", "pipefail", "-c", step], cwd=checkout, env=full_env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"step {step!r} failed:\n{done.stdout}\n{done.stderr}"


def checkout(game, tmp_path: Path, name: str) -> Path:
    """What the CI runner's checkout step gives: a clone of the remote at the pushed commit."""
    path = tmp_path / name
    git(tmp_path, "clone", "--quiet", game.remote, path)
    return path


def test_the_github_and_gitlab_steps_referee_pushes_with_the_identity_from_the_ci_secret(club, tmp_path):
    game = club("coal-baron", 3, seed=SEED, ci=True)
    assert not (tmp_path / "referee-files").exists()  # nothing of the referee outside the repository
    secret = {layout.IDENTITY_VARIABLE: game.ci_identity.read_text()}
    submissions, final = plan("coal-baron", game.names, SEED, game.dir.name, limit=4)
    for index, (number, player, moves) in enumerate(submissions):
        assert game.move(player, "; ".join(moves)).code == 0
        ci = "github" if index % 2 == 0 else "gitlab"
        steps = github_steps(game.dir / layout.WORKFLOW) if ci == "github" else gitlab_steps(game.dir / layout.GITLAB)
        run_steps(steps, checkout(game, tmp_path, f"{ci}-{number}"), secret)
        clone = checkout(game, tmp_path, f"after-{number}")
        public = yamlio.load_file(clone / "public.yaml")
        assert public["move_number"] == number + 1, f"the {ci} steps did not referee move {number}"
    # the referee's state travels only encrypted, and it is the state the moves lead to
    clone = checkout(game, tmp_path, "last")
    identity = keys.Identity(secret[layout.IDENTITY_VARIABLE], "the CI secret")
    opened = desk.open_committed(desk.Repo(clone), git(clone, "rev-parse", "HEAD").strip(), identity)
    try:
        from pbem.engine import engine
        assert engine.load_state(opened.gd)["move_number"] == len(submissions) + 1
    finally:
        opened.close()
    assert (clone / layout.ARCHIVE).read_text().startswith(keys.ARMOR_BEGIN)
    assert game.pbem("git", "verify", clone).code == 0
    history = git(game.remote, "log", "-p", "--all")
    for secret in [SEED, *game.secrets.values()]:
        assert secret not in history


def test_a_referee_archive_forged_by_a_player_is_not_taken_for_the_referees(club, tmp_path):
    game = club("coal-baron", 3, seed=SEED, ci=True)
    identity = keys.Identity(game.ci_identity.read_text(), "key")
    config = yamlio.load_file(game.dir / layout.CONFIG)
    # alice encrypts an archive of her own to the referee's public key (anyone can) and commits it with trailers
    body = {"format": desk.ARCHIVE_FORMAT, "id": game.dir.name, "judged": None, "chain": [], "tree": {},
            "files": {}}
    forged = desk.seal(body, keys.Identity(keys.new_identity()[0], "alice's own key"),
                       config["referee"]["recipient"])
    game.pull("alice")
    (game.clones["alice"] / layout.ARCHIVE).write_bytes(forged)
    git(game.clones["alice"], "commit", "--quiet", "-am", "pbem: new\n\nPbem-Game: club-game\nPbem-Move: 1")
    git(game.clones["alice"], "push", "--quiet")
    clone = checkout(game, tmp_path, "ci")
    head = git(clone, "rev-parse", "HEAD").strip()
    last, _ = desk.find_last_refereed(desk.Repo(clone), head, identity)
    assert last != head and last == git(clone, "rev-list", "--max-parents=0", "HEAD").strip()
    result = game.pbem("git", "referee", clone, "--identity", game.ci_identity)
    assert result.code == 0 and "refused" in result.out and "referee.age" in result.out


def test_the_verify_steps_of_a_local_referees_repository_pass_on_a_played_game(club, tmp_path):
    game = club("coal-baron", 3, seed=SEED)
    submissions, _ = plan("coal-baron", game.names, SEED, game.dir.name, limit=3)
    game.play(submissions)
    mid_game = game.pbem("git", "verify", game.dir, "--format", "json").json()["checks"]
    assert any("3 signed with players' secrets, checked once the game is over" in line for line in mid_game)
    by_referee = game.pbem("git", "verify", game.dir, "--referee-dir", game.referee_dir, "--format", "json")
    assert any("and 3 HMAC-signed moves good" in line for line in by_referee.json()["checks"])
    for name, steps in (("github", github_steps(game.dir / layout.WORKFLOW)),
                        ("gitlab", gitlab_steps(game.dir / layout.GITLAB))):
        assert any("pbem git verify" in step for step in steps)
        run_steps(steps, checkout(game, tmp_path, name), {})


def test_the_post_receive_hook_of_the_guide_referees_every_push(club, monkeypatch):
    """docs/git.md's hook, installed in the bare remote: a player's push is refereed before the push returns."""
    game = club("coal-baron", 3, seed=SEED)
    guide = (Path(__file__).resolve().parents[2] / "docs" / "git.md").read_text()
    blocks = [piece.split("```")[0] for piece in guide.split("```sh\n")[1:]]
    hook = next(block for block in blocks if block.startswith("#!/bin/sh") and "post-receive" in block)
    hook = hook.replace("/srv/pbem/clones/spring-cup", str(game.dir)).replace("/srv/pbem/games",
                                                                              str(game.referee_dir))
    path = game.remote / "hooks" / "post-receive"
    path.write_text(hook)
    path.chmod(0o755)
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])  # the server's
    (number, player, moves), = plan("coal-baron", game.names, SEED, game.dir.name, limit=1)[0]
    assert game.move(player, "; ".join(moves)).code == 0  # pushes; the hook referees before the push returns
    game.pull(player)
    public = yamlio.load_file(game.clones[player] / "public.yaml")
    assert public["move_number"] == 2, (Path(f"{game.dir}.log").read_text() if Path(f"{game.dir}.log").exists()
                                        else "no log")


def without_pbem() -> str:
    """PATH without a folder that holds a `pbem` (this environment's bin/, an activated one's, any other): what a
    fresh runner has."""
    return os.pathsep.join(part for part in os.environ["PATH"].split(os.pathsep)
                           if part and not (Path(part) / "pbem").exists())


def runner_environment() -> dict:
    """This process's environment without what names a Python environment: a runner's own has none of it."""
    return {key: value for key, value in os.environ.items()
            if key not in ("VIRTUAL_ENV", "VIRTUAL_ENV_PROMPT", "PYTHONHOME", "PYTHONPATH", "CONDA_PREFIX")}


def test_without_a_source_named_at_init_the_install_step_stops_at_once_and_says_so(club):
    game = club("coal-baron", 3, seed=SEED)
    for steps in (github_steps(game.dir / layout.WORKFLOW), gitlab_steps(game.dir / layout.GITLAB)):
        done = subprocess.run(["bash", "-c", steps[0]], cwd=game.dir, capture_output=True, text=True,
                              env={**runner_environment(), "PATH": without_pbem()})
        assert done.returncode == 1 and "no source of it was named" in done.stderr and "--pbem-source" in done.stderr


def test_the_install_step_installs_the_named_source_into_the_runners_python_whatever_pbem_is_on_path(tmp_path):
    """A pbem elsewhere on PATH (an activated environment's, a runner's own) is not the one the game named: the step
    installs the named source with the runner's python3 all the same."""
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "pbem").write_text("#!/bin/sh\necho 'another pbem'\n")
    (fake / "python3").write_text(f"#!/bin/sh\necho \"$@\" >> {tmp_path / 'installed'}\n")
    for script in fake.iterdir():
        script.chmod(0o755)
    source = "git+https://club.example/pbem.git@v1.0"
    step = layout.install_step(source)
    done = subprocess.run(["bash", "-c", step], capture_output=True, text=True,
                          env={**runner_environment(), "PATH": f"{fake}{os.pathsep}{without_pbem()}",
                               "VIRTUAL_ENV": str(Path(sys.executable).parent.parent)})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "installed").read_text() == f"-m pip install --quiet {source}\n"


def test_the_generated_steps_install_pbem_from_the_source_named_at_init_and_verify(tmp_path):
    """A wheel of this pbem as the club's source: a fresh Python environment (no pbem in it) runs the GitHub
    workflow's steps, which install pbem from it and verify the game."""
    from support import Pbem
    source = tmp_path / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info",
                                                                "__pycache__", ".pytest_cache", "examples"))
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", dist, source],
                   check=True, capture_output=True, timeout=600)
    wheel = next(dist.glob("pbem-*.whl"))
    game = tmp_path / "club-game"
    key = ssh_key(tmp_path, "alice")
    result = Pbem()("git", "init", "coal-baron", game, "--player", "alice", "--player", "bob", "--key",
                    f"alice={key}.pub", "--key", f"bob={key}.pub", "--referee-dir", tmp_path / "referee",
                    "--pbem-source", wheel)
    assert result.code == 0, result.err
    runner = tmp_path / "runner"
    subprocess.run([sys.executable, "-m", "venv", runner], check=True, capture_output=True, timeout=600)
    steps = github_steps(game / layout.WORKFLOW)
    assert str(wheel) in steps[0]
    run_steps(steps, game, {}, bin_dir=runner / "bin")
    assert (runner / "bin" / "pbem").exists()
