"""`pbem git verify`'s check that every move is its player's: a move file signed with the player's secret (HMAC;
checked once the secrets are revealed at the end, or by the referee with its own records), or the commit that added
it signed with the SSH key the player had registered when the move was judged.
"""
from __future__ import annotations

from pathlib import Path

from ..contract import PbemError
from ..engine import engine
from ..messages import _, lazy
from ..play import trust
from . import layout
from .repo import Repo
from .signers import AllowedSigners


class VerifyFailed(PbemError):
    """A check of `pbem git verify` failed: the history is not what the referee made."""


def _secrets(repo: Repo, tip: str, referee_root) -> dict[str, list[tuple[int | None, str]]] | None:
    """Each seat's secrets: [(the move number it signed up to, exclusive; None for the current one), secret]."""
    data = repo.show(tip, layout.REVEALED)
    if data is not None:
        revealed = layout.load("revealed", data, layout.REVEALED)
        former = revealed.get("former", {})
        roster = [{"name": name, "secret": secret, "former": former.get(name, [])}
                  for name, secret in revealed["secrets"].items()]
    elif referee_root:
        from .desk import local_record
        game_dir, _ = local_record(Path(referee_root), repo, tip)
        roster = engine.roster(engine.open_game(game_dir))
    else:
        return None
    return {p["name"]: [(f["until"], f["secret"]) for f in p.get("former", [])] + [(None, p["secret"])]
            for p in roster}


def _secret_at(secrets: list[tuple[int | None, str]], number: int) -> str:
    """The secret a seat signed move `number` with: the first holder's whose time had not ended."""
    return next(secret for until, secret in secrets if until is None or number < until)


def check_signatures(repo: Repo, gd, configs: dict[str, dict], chain, logs, moves, finished: bool,
                      referee_root) -> str:
    """Each move is signed: its file with the player's secret (HMAC), or the commit that added it with the SSH
    key the player had when the move was judged. The file of an encrypted move cannot be read, but once the game
    is over the full log shows what it said and its signature."""
    secrets = _secrets(repo, chain[-1]["commit"], referee_root)
    full = {engine.number_answered(e): e for e in logs[-1].entries if e["by"] == "player"} if finished else {}
    ssh_ok = hmac_ok = later = sealed = 0
    with AllowedSigners() as allowed:  # one allowed-signers file for each set of keys in force
        signed = _ssh_signatures(repo, allowed, configs, moves, full)
        for move in moves:
            keys = layout.ssh_keys(configs[move["refereed"]])  # a new key is given before the run judges anything
            known = move["doc"] is not None or move["number"] in full
            signature = _hmac_signature(move, full)
            if signature and move["doc"] is None and full.get(move["number"], {}).get("sealed"):
                sealed += 1  # it carried a queue, unused steps never revealed: checked by the referee when judged
                continue
            if signature:
                if secrets is None:
                    later += 1
                    continue
                texts = move["doc"]["moves"] if move["doc"] else full[move["number"]]["moves"]
                try:
                    trust.check_signature(_secret_at(secrets[move["player"]], move["number"]), signature, gd.id,
                                          move["number"], move["player"], texts)
                except PbemError as exc:
                    # TRANSLATORS: {path}: a move file's path; {error}: why its signature is refused
                    raise VerifyFailed(lazy("verify failed: {path}: {error}", path=move["path"],
                                            error=exc.message or str(exc))) from None
                hmac_ok += 1
            elif move["player"] in keys and any(signed[allowed.file(keys)].get(c) == ("G", move["player"])
                                                for c in move["commits"]):
                ssh_ok += 1
            elif not known:
                later += 1  # encrypted, and not signed by SSH: its HMAC shows in the full log at the end
            else:
                raise VerifyFailed(lazy("verify failed: {path} carries no signature and no commit that added it is "
                                        "signed with the SSH key {player} registered", path=move["path"],
                                        player=move["player"]))
    # TRANSLATORS: {ssh}, {hmac}: how many commits and moves were found signed (write it so any count reads)
    line = _("signatures: {ssh} SSH-signed commits and {hmac} HMAC-signed moves good", ssh=ssh_ok, hmac=hmac_ok)
    if later:
        # TRANSLATORS: {checks}: the line above; {count}: how many moves more
        line = _("{checks}; {count} signed with players' secrets, checked once the game is over", checks=line,
                 count=later)
    if sealed:
        line = _("{checks}; {count} carrying a queue (sealed), checked by the referee when judged", checks=line,
                 count=sealed)
    return line


def _hmac_signature(move: dict, full: dict[int, dict]) -> str | None:
    """The signature a move file carries, or (encrypted) the full log shows once the game is over."""
    return (move["doc"] or full.get(move["number"]) or {}).get("signature")


def _ssh_signatures(repo: Repo, allowed: AllowedSigners, configs: dict[str, dict], moves: list[dict],
                    full: dict[int, dict]) -> dict[Path, dict[str, tuple[str, str]]]:
    """{allowed-signers file: {commit: its SSH signature checked against that file}} for every commit that added a
    move carrying no HMAC signature, in one `git log` for each set of keys in force (not one a commit)."""
    wanted: dict[Path, set[str]] = {}
    for move in moves:
        keys = layout.ssh_keys(configs[move["refereed"]])
        if not _hmac_signature(move, full) and move["player"] in keys:
            wanted.setdefault(allowed.file(keys), set()).update(move["commits"])
    return {signers: repo.signatures(sorted(commits), signers) for signers, commits in wanted.items()}
