"""`pbem verify`: a game replayed from its seed and log; every file pbem wrote must be what the replay gives.

Also the replay's steps, and the public files of each step, for a transport that keeps every published position
(git), so that each one is checked.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import digests, notation
from ..contract import PbemError
from ..messages import Message, _, lazy
from ..play import botmoves, turns
from ..play import takebacks
from ..play.turns import (END, REPLACE, RESIGN, TAKEBACK_WORDS, TIMEOUT_REASONS, MoveAt, end_entry, play_turn,
                          timeout_choice, to_act)
from ..rng import Rng, commitment
from ..store import validation, yamlio
from ..store.gamedir import (COMPONENTS, FULL_LOG, GAME, LOG, PUBLIC, STATE, STATE_DIGEST, STATUS_DIGESTS, GameDir,
                             StoredFiles, check_player, game_file_differences, load_state, read_components, read_status,
                             reading, state_edited, view_file)
from ..store.safefiles import Missing
from .documents import (RECENT, differences, decision_of, final_ranking, in_stored_words, json_text, public_entry,
                        public_log, rulings, schema_line, status_doc, status_docs, status_files, with_status_digests)
from .rewinds import Rewinds, replay_takeback

if TYPE_CHECKING:
    from ..store.registry import Game

MAX_PROBLEMS = 40
THE_LOG = lazy("the log")  # what a replay names when its caller names nothing else


def replay_steps(gd: GameDir, seed: str, components: dict, log: dict, source: str | Message = THE_LOG,
                 notes: list[str] | None = None, rewinds: Rewinds | None = None):
    """Replay a full log from the seed: yield (entries replayed, state, resigned) after the setup and after each
    entry, checking every chance outcome against the recorded one. Each state is handed to the next entry's
    `apply`, which may change it: use it before asking for the next step (copy it to keep it). A failure names
    `source`, the log replayed (and what gave the players and options). What is checked less than the rest (a
    timeout move of an earlier bot: legal, not recomputed) is named in `notes`. A takeback granted goes back to
    the position `rewinds` kept for it."""
    entries = log["entries"] or []
    rewinds = rewinds or Rewinds(entries)
    for count, state, resigned in _replayed(gd, seed, components, log, source, notes, rewinds):
        rewinds.keep(count, state, entries[count - 1] if count else None)
        yield count, state, resigned


def _replayed(gd: GameDir, seed: str, components: dict, log: dict, source: str, notes: list[str] | None,
              rewinds: Rewinds):
    game = gd.game
    rng = Rng(seed, gd.id, 0)
    try:
        state = game.rules.setup(list(gd.players), dict(gd.meta["options"]), components, rng)
    except PbemError as exc:
        raise PbemError(lazy("verify failed: {source}: the game cannot be set up ({error})", source=source,
                             error=exc.message or str(exc))) from None
    if rng.outcomes != log["setup_chance"]:
        raise PbemError(lazy("verify failed: {source}: the setup's shuffles differ from the recorded ones",
                             source=source))
    resigned = []
    alone = None  # moves the referee played since every seat resigned (None while a player is in)
    asked = None  # the takeback asked and not yet granted or refused: {by, of, declined}
    entries = log["entries"] or []
    yield 0, state, []
    for expected_number, entry in enumerate(entries, 1):
        if entry["number"] != expected_number:
            raise PbemError(lazy("verify failed: {source}: entry {expected} is numbered {number}", source=source,
                                 expected=expected_number, number=entry["number"]))
        if entry["moves"][0] in TAKEBACK_WORDS and len(entry["moves"]) == 1:
            state, asked = replay_takeback(game, (entries, rewinds, source), entry, asked, state)
            yield expected_number, state, list(resigned)
            continue
        if entry["moves"] == [RESIGN]:
            resigned.append(entry["player"])
            alone = 0 if set(gd.players) <= set(resigned) else None
            yield expected_number, state, list(resigned)
            continue
        if entry["moves"] == [REPLACE]:  # a seat handed to a new player: it plays on, even if it had resigned
            resigned = [player for player in resigned if player != entry["player"]]
            alone = None
            yield expected_number, state, list(resigned)
            continue
        if entry["moves"] == [END]:
            _check_ending(game, state, entry, alone, expected_number == len(entries), source)
            yield expected_number, state, list(resigned)
            continue
        alone = None if alone is None else alone + len(entry["moves"])
        note = _check_bot_move(game, state, MoveAt(seed, gd.id, entry["number"], components), entry, source)
        if note and notes is not None:
            notes.append(note)
        rng = Rng(seed, gd.id, entry["number"])
        try:
            moves = [game.parse_move(text) for text in entry["moves"]]
            state = play_turn(game, state, entry["player"], moves, rng, handed_over=True)
        except (PbemError, notation.NotationError) as exc:
            raise PbemError(lazy("verify failed: {source}: move {number} by {player}: {error}", source=source,
                                 number=entry["number"], player=entry["player"],
                                 error=getattr(exc, "message", None) or str(exc))) from None
        if rng.outcomes != entry["chance"]:
            raise PbemError(lazy("verify failed: {source}: move {number}: the recorded chance outcomes differ from "
                                 "the seed's", source=source, number=entry["number"]))
        yield expected_number, state, list(resigned)


def rewind(gd: GameDir, seed: str, components: dict, log: dict, target: int, upto: int):
    """The position before move `target`, replayed from the seed through the log, and why the moves from `target`
    to `upto` (excluded, the number the grant would take) cannot be taken back (pbem.play.takebacks.revealed;
    None: they can). Replaying the log is the plain way: the position is exactly the one it led to."""
    entries = (log["entries"] or [])[:upto - 1]
    rewinds = Rewinds(entries, {upto: target})
    for _ in replay_steps(gd, seed, components, {**log, "entries": entries}, rewinds=rewinds):
        pass
    before, steps = rewinds.kept[target]
    return before, takebacks.revealed(gd.game, before, steps)


def _check_ending(game: Game, state: dict, entry: dict, alone: int | None, last: bool, source: str) -> None:
    """The referee may end a game only where pbem.play.turns does: every seat resigned, the game not over, exactly
    ALL_RESIGNED_CAP moves played by the referee since; and nothing comes after it."""
    cap = turns.ALL_RESIGNED_CAP
    pending = game.rules.pending(state)
    if alone is None:
        why = lazy("not every seat had resigned")
    elif pending is None:
        why = lazy("the game was already over")
    elif alone != cap:
        why = lazy("the referee had played {count} moves since every seat resigned, not {cap}", count=alone, cap=cap)
    elif not last:
        why = lazy("the log goes on after it")
    elif entry != end_entry(entry["number"], pending["player"]):
        why = lazy("its entry is not the one the referee writes there")
    else:
        return
    # TRANSLATORS: {why}: a clause saying what was wrong ("not every seat had resigned").
    raise PbemError(lazy("verify failed: {source}: move {number}: the referee ended the game, but {why}",
                         source=source, number=entry["number"], why=why))


def _check_bot_move(game: Game, state: dict, at: MoveAt, entry: dict, source: str) -> str | None:
    """A move the referee played because a decision timed out, or a bot seat's move, must be the one its policy
    gives: the first legal move, or its bot's at the level its entry names (pbem.play.botmoves). A bot's move is
    recomputed by bots of the versions its entry names; one made by other versions (or before entries named
    them) cannot be, and bots change: it is checked as legal (by the replay) and named in the note returned, not
    failed, unless this pbem's bots make the same move."""
    policy = "bot" if entry["by"] == botmoves.BOT else \
        next((name for name, reason in TIMEOUT_REASONS.items() if entry.get("reason") == reason), None)
    if policy is None or entry["by"] not in ("referee", botmoves.BOT):
        return None
    level = botmoves.level_of(entry)
    expected = game.format_move(timeout_choice(game, state, entry["player"], policy, at, level))
    if entry["moves"] == [expected]:
        return None
    if policy == "bot" and not botmoves.remade_by_this_pbem(game, entry):
        return botmoves.not_remade_note(game, entry, timeout=entry["by"] == "referee")
    # TRANSLATORS: {policy}: how the referee chose it (first-legal, bot); {expected} and {moves}: moves of the
    # notation; {seat}: "timeout" or "LEVEL seat" (a bot's level: random, greedy, search).
    raise PbemError(lazy("verify failed: {source}: move {number}: the referee's {policy} move for {player}'s {seat} "
                         "is {expected}, the log says {moves}", source=source, number=entry["number"],
                         policy=policy, player=entry["player"], expected=repr(expected), moves=str(entry["moves"]),
                         seat=lazy("timeout") if entry["by"] == "referee" else lazy("{level} seat", level=level)))


def replay(gd: GameDir, seed: str, components: dict, log: dict, source: str | Message = THE_LOG,
           notes: list[str] | None = None) -> tuple[dict, list[dict]]:
    """The state a log leads to from the seed, checking every chance outcome against the recorded one (`notes`:
    as for replay_steps)."""
    for _done, state, resigned in replay_steps(gd, seed, components, log, source, notes):
        pass
    return state, log["entries"] or [], resigned


def published_status(gd: GameDir, seed: str, count: int, state: dict, resigned: list[str], recent: list[dict]
                     ) -> dict:
    """The public status (public.yaml) the referee wrote when the first `count` entries of the full log had been
    played (`state`, `resigned`: from replay_steps; `recent`: the public entries of them so far, which the caller
    keeps as the replay goes, so that each entry is masked once). For a transport that keeps every published
    position (git), so that each one can be checked against the replay."""
    env = {"move_number": count + 1, "seed": seed, "state": state, "resigned": resigned, "recent": recent[-RECENT:]}
    decision = decision_of(gd.game, env)
    ranking = None if decision else final_ranking(gd.game.rules.result(state), resigned, rulings(gd.meta))
    return status_doc(gd, env, None, recent[-RECENT:], decision, ranking)


def verify(gd: GameDir, player: str | None = None) -> dict:
    """Replay the game from its seed and log; every file pbem wrote must be exactly what the replay gives.

    With the referee's files (and no `player`) every file is checked. Without them, or `as` a player, once the
    game is over and its seed public: what a player holds, the public files and the views present (with
    `player`, that player's view, which must be there)."""
    if player is not None:
        check_player(gd, player)
    with reading(gd):
        referee = player is None and gd.has_referee()
        env, seed, log, log_file = _sources(gd, referee)
        # game.yaml as the referee wrote it, recorded in the log (absent in games made before logs recorded it)
        recorded = log.get("game_file")
        meta = recorded or gd.meta
        components = _components(gd, meta)
        if commitment(seed) != meta["seed_commitment"]:
            raise PbemError(lazy("verify failed: the seed does not match the commitment published in {file}",
                                 file=gd.where(log_file if recorded else GAME)))
        # Who plays with which options: the referee's state says, or the log's record of game.yaml (game.yaml
        # itself is compared with them below, so an edit of it is named rather than breaking the replay).
        facts = env if referee else meta
        played = GameDir(gd.dir, {**gd.meta, "players": facts["players"], "options": facts["options"]}, gd.overlay)
        source = gd.where(log_file) if referee or recorded else \
            lazy("{log} (replayed with the players and options of {game})", log=gd.where(log_file),
                 game=gd.where(GAME))
        replay_notes = []
        state, entries, resigned = replay(played, seed, components, log, source, replay_notes)
        recent = [public_entry(gd.game, entry) for entry in entries][-RECENT:]
        replayed = {"move_number": len(entries) + 1, "seed": seed, "state": state, "resigned": resigned,
                    "recent": recent}
        finished = to_act(gd.game, replayed) is None
        for record in ("clock", "queues"):  # the referee's records of when moves came and what players queued,
            if referee and env.get(record):  # not a replay's: shown as stored
                replayed[record] = env[record]
        problems = _log_header_problems(gd, log) + _game_file_problems(gd, recorded, log_file) \
            + (_referee_problems(gd, env, replayed, recorded is None) if referee else [])
        found, checked, worded = _compare_files(gd, replayed, public_log(gd, log, finished), referee, player)
        problems += found
        notes = replay_notes + worded + _schema_notes(gd, problems) + ([] if recorded else [
            _("{file}: its title, created and pbem_version were not checked (this game's log does not record "
              "{file}: an earlier pbem made the game)", file=GAME)])
        if problems:
            shown = problems[:MAX_PROBLEMS] + ([f"... and {len(problems) - MAX_PROBLEMS} more"]
                                               if len(problems) > MAX_PROBLEMS else [])
            # TRANSLATORS: {problems}: the differences, one a line (in English: they name files and fields).
            raise PbemError(lazy("verify failed: the stored files differ from the replay:\n  {problems}",
                                 problems="\n  ".join(shown)))
    return {"game": gd.id, "moves": len(entries), "finished": finished, "seed_checked": finished or referee,
            "checked": checked, "notes": notes, "result": "ok"}


def _sources(gd: GameDir, referee: bool) -> tuple[dict | None, str, dict, str]:
    """What the replay starts from: (the referee's state envelope, the seed, the log, the log's file). The
    referee's own, or once the game is over and its seed public, the public log."""
    if referee:
        env = load_state(gd, trust_edits=True)
        return env, env["seed"], gd.read(FULL_LOG, "log.schema.json"), FULL_LOG
    public = read_status(gd, None)
    if "seed" not in public:
        raise PbemError(lazy("{path}: the game is not over; until its seed is revealed only the referee can verify "
                             "it (with {file}, which is not here)", path=str(gd.dir), file=STATE))
    return None, public["seed"], gd.read(LOG, "log.schema.json"), LOG


def _compare_files(gd: GameDir, replayed: dict, log: dict, referee: bool, player: str | None
                   ) -> tuple[list[str], list[str], list[str]]:
    """Every status file (and the status digests, with the referee's files) and the public log (`log`, as the
    replay gives it) compared with what is stored: (the problems, the files checked, notes of the files worded
    by an earlier pbem). Without the referee's files, only what a player holds: the public files and the views
    present (with `player`, theirs)."""
    recent, stored = replayed["recent"], StoredFiles(gd)
    expected = status_docs(gd, replayed, recent)
    status = status_files(gd, replayed, recent, expected)
    expected, reworded = _in_stored_words(stored, expected, status)
    if reworded:
        status = status_files(gd, replayed, recent, expected)
    texts = {relative: text for relative, (text, _) in status.items()}
    expected[LOG], texts[LOG] = log, yamlio.dumps(log, schema_line(LOG, "log.schema.json"))
    problems, checked = [], [GAME, COMPONENTS] + ([STATE, FULL_LOG] if referee else [])
    if referee and gd.has(STATUS_DIGESTS):  # absent in games started before status digests were kept
        if gd.read_text(STATUS_DIGESTS) != with_status_digests(status)[STATUS_DIGESTS][0]:
            problems.append(f"{STATUS_DIGESTS}: not the digests of the status files the replay gives")
        checked.append(STATUS_DIGESTS)
    for relative, data in expected.items():
        if relative.startswith("views/") and not referee and relative != (player and view_file(player)) \
                and (player is not None or not gd.has(relative)):
            continue  # another player's view: not in this player's hands
        problems += _file_problems(stored, relative, data, texts[relative])
        checked.append(relative)
    # TRANSLATORS: {files}: file names, listed
    notes = [_("{files}: the decision's description is worded as another pbem worded it; these words are not the "
               "record (who must act and which decision are, and were checked)",
               files=", ".join(reworded))] if reworded else []
    return problems, checked, notes


def _in_stored_words(stored: StoredFiles, expected: dict[str, dict], status: dict[str, tuple[str, int]]
                     ) -> tuple[dict[str, dict], list[str]]:
    """The replay's status documents worded as the stored files word them (documents.in_stored_words), and the
    files whose words differ. A stored file that is the replay's text, or cannot be read, is left to
    _file_problems."""
    worded, reworded = dict(expected), []
    for relative, doc in expected.items():
        try:
            if stored.data(relative) == status[relative][0].encode("utf-8"):
                continue
            worded[relative] = in_stored_words(doc, stored.doc(relative))
        except PbemError:
            continue
        if worded[relative] != doc:
            reworded.append(relative)
    return worded, reworded


def _components(gd: GameDir, meta: dict) -> dict:
    """components.yaml, which must be the file the game was set up with (its SHA-256 in `meta`: game.yaml as
    recorded in the log, or as it is)."""
    try:
        return read_components(gd, meta["components_sha256"])
    except PbemError as exc:
        raise PbemError(lazy("verify failed: {error}", error=exc.message or str(exc))) from None


def _log_header_problems(gd: GameDir, log: dict) -> list[str]:
    """The log replayed must be this game's (game.yaml's id, type and rules version)."""
    return [f"{GAME} {key}: {gd.meta[key]!r}, but the log says {log[key]!r}"
            for key in ("id", "game", "rules_version") if log[key] != gd.meta[key]]


def _game_file_problems(gd: GameDir, recorded: dict | None, log_file: str) -> list[str]:
    """game.yaml against the log's record of it: byte for byte, and each field that differs named."""
    if recorded is None:
        return []
    try:
        data = gd.read_bytes(GAME)
    except PbemError as exc:
        return [str(exc)]
    if data == yamlio.dumps(recorded, schema_line(GAME, "game.schema.json")).encode():
        return []
    found = differences(recorded, gd.meta, against=f"{log_file}'s record of it", limit=MAX_PROBLEMS)
    return [f"{GAME} {p}" for p in found] or [
        f"{GAME}: its text is not what the referee wrote (the same fields, written differently: a comment, "
        f"spacing or quoting)"]


def _referee_problems(gd: GameDir, env: dict, replayed: dict, with_game_file: bool = True) -> list[str]:
    """The referee's files against the replay: the state and its checksum, the log's checksum, game.yaml."""
    problems = [f"{STATE} {p}" for p in differences(replayed["state"], env["state"], "$.state")]
    if state_edited(gd):
        problems.append(f"{STATE}: changed outside pbem (its checksum, {STATE_DIGEST}, does not match)")
    for key in ("resigned", "move_number", "recent"):
        if env[key] != replayed[key]:
            problems.append(f"{STATE} $.{key}: stored {env[key]!r:.80} but the replay gives {replayed[key]!r:.80}")
    recorded = env.get("log_sha256")
    if recorded and digests.sha256(gd.read_bytes(FULL_LOG)).hexdigest() != recorded[FULL_LOG]:
        problems.append(f"{FULL_LOG}: changed outside pbem (its checksum in the state does not match)")
    if with_game_file:  # (a log that records game.yaml compares it field by field: _game_file_problems)
        problems += [f"{GAME} {key}: differs from the referee's state" for key in game_file_differences(gd, env)]
    return problems


def _file_problems(stored: StoredFiles, relative: str, expected: dict, text: str) -> list[str]:
    """What differs between a stored file and the replay's data. A file whose bytes are the replay's text as pbem
    writes it (`text`) differs in nothing, and is not parsed."""
    try:
        if stored.data(relative) == text.encode("utf-8"):
            return []
        doc = stored.doc(relative)
    except Missing:
        return [f"{relative}: missing"]
    except PbemError as exc:
        return [str(exc)]
    return [f"{relative} {p}" for p in differences(expected, doc)] or [
        f"{relative}: its text is not what the referee writes (the same data, written differently: a comment, "
        f"spacing or quoting)"]


def _schema_notes(gd: GameDir, problems: list[str]) -> list[str]:
    """The schemas are for editors only (pbem validates with its own) and change between pbem versions: a copy
    that differs from this pbem's is named, without failing the verification. A link or a folder where a schema
    should be is a problem (added to `problems`)."""
    notes = []
    for name, schema in validation.schemas_for(gd.meta["game"]).items():
        relative = f"schemas/{name}"
        try:
            same = gd.read_bytes(relative) == json_text(schema).encode()
        except Missing:
            notes.append(_("{file}: missing", file=relative))
            continue
        except PbemError as exc:
            problems.append(str(exc))
            continue
        if not same:
            notes.append(_("{file}: differs from this pbem's schema (another pbem version wrote it, or it was "
                           "edited)", file=relative))
    return notes
