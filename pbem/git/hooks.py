"""The pre-commit hooks a club's repository may use (.pre-commit-hooks.yaml at the top of pbem's repository):
`pbem-check-move` and `pbem-check-state`, so a mistake is caught before it is committed, not by the referee.

Run from the top of the club's repository, with the paths pre-commit passes (relative to it).
"""
from __future__ import annotations

from pathlib import Path

from ..contract import PbemError
from ..engine import engine
from ..messages import _, lazy
from ..play import movefile
from ..store import validation, yamlio
from ..text.language import reading
from . import judge, keys, layout

STATE_SCHEMAS = {engine.GAME: "game.schema.json", engine.PUBLIC: "public.schema.json", engine.LOG: "log.schema.json",
                 engine.COMPONENTS: validation.game_name("components")}
GIT_FILES = {layout.CONFIG: "config", layout.REFUSED: "refused", layout.REVEALED: "revealed"}


def _game() -> engine.GameDir | None:
    """The game of the repository the hook runs in (its game.yaml), if it has a valid one."""
    try:
        return engine.open_game(".")
    except PbemError:
        return None


def check_moves(files) -> list[str]:
    """What is wrong with each move file, in the game's language (a hook does not know who commits)."""
    gd = _game()
    problems = []
    with reading(gd.meta.get("language", "en") if gd is not None else None):
        for name in files:
            try:
                _check_move(Path(name), gd)
            except PbemError as exc:
                said = exc.render()
                problems.append(said if said.startswith(name) else _("{path}: {reason}", path=name, reason=said))
    return problems


def _check_move(path: Path, gd: engine.GameDir | None) -> None:
    named = layout.move_name(path.as_posix())
    if not named:
        raise PbemError(lazy("a move file is moves/NNNN-NAME.yaml (NNNN: the move number it answers), or .yaml.age"))
    data = path.read_bytes()
    if named.group("age"):
        if not data.lstrip().startswith(keys.ARMOR_BEGIN.encode()):
            raise PbemError(lazy("named .age but not an age-encrypted file"))
        return
    doc = layout.load("talk", data, str(path)) if named.group("talk") else movefile.parse(data, str(path))
    if doc["player"] != named.group("player") or doc["move_number"] != int(named.group("number")):
        raise PbemError(lazy("the file says move {number} of {player}; its name must say the same",
                             number=doc["move_number"], player=doc["player"]))
    if named.group("talk") and doc["to"] is not None:
        raise PbemError(lazy("this message goes to one player: it must not be committed in the clear (`pbem git say "
                             "--to` encrypts it)"))
    if gd is not None:
        if doc["game"] != gd.id:
            raise PbemError(lazy("the move is for game {other}, this repository plays {game}", other=repr(doc["game"]),
                                 game=repr(gd.id)))
        if not named.group("talk") and judge.hidden_choice(gd, doc["moves"]):
            raise PbemError(lazy("this move holds a hidden choice: it must not be committed in the clear (`pbem git "
                                 "move` encrypts it to the referee)"))


def check_states(files) -> list[str]:
    gd = _game()
    problems = []
    for name in files:
        path = Path(name)
        try:
            data = yamlio.load_file(path)
            if path.name in GIT_FILES:
                layout.check(GIT_FILES[path.name], data, name)
            elif path.name in STATE_SCHEMAS:
                game_type = gd.meta["game"] if gd else (data.get("game") if isinstance(data, dict) else None)
                validation.check(game_type, STATE_SCHEMAS[path.name], data, name)
        except PbemError as exc:
            problems.append(str(exc))
    return problems
