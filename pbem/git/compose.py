"""What a refereed commit holds: the files the referee writes (the public files, the views, refused.yaml, the
picture, the CI files, revealed.yaml at the end) and its message, whose trailers name the game, the move number it
leaves the game at, and the previous refereed commit (so a rewritten history is seen: `pbem git verify`).
"""
from __future__ import annotations

from ..contract import PbemError
from ..engine import engine
from ..messages import N_, PBEM, _, joined, ngettext
from ..play.botmoves import BOT, seat_level
from ..text.botwords import bot_name, reason_text
from ..text.phrases import moves_text
from . import desk as desks
from . import layout, talk
from .repo import Repo

REFUSED_KEPT = 100  # refusals refused.yaml lists; older ones are counted, and listed by earlier refereed commits
REFUSALS_NAMED = 20  # refusals a refereed commit's message names one by one
# what each file missing_files may add is, in words
ADDED = {layout.PRE_COMMIT: N_("the players' pre-commit hooks")}


def ci_files(config: dict, branch: str, pbem_source: str | None) -> dict[str, bytes]:
    """The GitHub and GitLab CI files: the referee itself for a referee in CI, else a check of every push."""
    committed = config["referee"]["files"] == "committed"
    return {layout.WORKFLOW: layout.ci_file("github", committed, branch, pbem_source).encode(),
            layout.GITLAB: layout.ci_file("gitlab", committed, branch, pbem_source).encode()}


def hook_files() -> dict[str, bytes]:
    """The players' pre-commit hooks, as `pbem git init` writes them (in the language being read)."""
    return {layout.PRE_COMMIT: layout.pre_commit_config().encode()}


def missing_files(base: dict[str, str]) -> dict[str, bytes]:
    """What a game started by an earlier pbem lacks ({path: bytes}; `base` is the last refereed commit's {path:
    blob}): the players' pre-commit hooks, written by the referee's next commit as `pbem git init` writes them now.
    A file that is there is never written over: a player's change to it is refused, and the referee's commit keeps
    the one of its own last commit."""
    return {path: data for path, data in hook_files().items() if path not in base}


def message(lines: list[str], game_id: str, move_number: int, previous: str | None) -> str:
    trailers = [f"Pbem-Game: {game_id}", f"Pbem-Move: {move_number}", f"Pbem-Previous: {previous or 'none'}"]
    return lines[0] + "\n\n" + "".join(f"{line}\n" for line in lines[1:]) + ("\n" if lines[1:] else "") + \
        "\n".join(trailers) + "\n"


def refereed_files(repo: Repo, desk: desks.Desk, last: str, run, views: bool = False) -> dict[str, bytes]:
    """Every file a refereed commit writes, by path: the game's public files, (`views`: when the position changed)
    each player's view and the legal moves of the player to act, encrypted to them, refused.yaml, pbem-git.yaml
    when a seat has a new key or went to a bot or back, revealed.yaml at the end. The move files it accepted and
    referee.age are added by the caller. A new kind of file (a picture of the position, say) is added here."""
    files = desk.public_files(views=views)
    if run.rekeyed or run.languages or run.botted or run.unbotted:
        files[layout.CONFIG] = layout.dump("config", desk.config, layout.CONFIG).encode()
    files[layout.REFUSED] = refused_file(repo.show(last, layout.REFUSED) or b"", desk.gd.id, last, run.verdicts,
                                         lambda player: engine.language_of(desk.gd, player))
    files.update(picture_files(desk))
    if run.finished:  # the secrets, like the seed, are worth nothing once the game is over: anyone may check
        roster = engine.roster(desk.gd)
        revealed = {"format": "pbem-revealed/1", "id": desk.gd.id,
                    "secrets": {p["name"]: p["secret"] for p in roster}}
        former = {p["name"]: [{"secret": f["secret"], "until": f["until"]} for f in p["former"]]
                  for p in roster if p.get("former")}
        if former:  # a seat handed on: its earlier holders signed with their own secrets, up to a move number
            revealed["former"] = former
        files[layout.REVEALED] = layout.dump("revealed", revealed, layout.REVEALED).encode()
    return files


def picture_files(desk: desks.Desk) -> dict[str, bytes]:
    """board.svg and README.md: the public picture and the position as the hosting's page of the repository shows
    it (a player's own picture is drawn from their encrypted view: `pbem git view --format html`)."""
    from ..text import pictures
    return pictures.repository_files(engine.status(desk.gd), bots=engine.load_state(desk.gd).get("bots"))


def _who(verdict) -> str:
    """Whom a refusal concerns: the player (by the move file, or the author's address), else the author's name."""
    return verdict.player or verdict.author.rpartition(" <")[0][:60] or _("unknown")


def refused_file(previous: bytes, game_id: str, last: str, verdicts: list, language_of=lambda player: "en") -> bytes:
    """refused.yaml: the newest REFUSED_KEPT refusals (this run's appended), each with its commit, author, the move
    number it was judged at and why. Older ones are counted in `earlier` and listed by the refused.yaml of earlier
    refereed commits (`in`: the last one that listed the newest of them), so the file stays small whatever is
    pushed; those of one run beyond REFUSED_KEPT are only counted (their commits are in the history). Each reason is
    in the language of the player it concerns (`language_of(player)`; whom nobody can tell: the game's)."""
    from ..text import language
    doc = layout.load("refused", previous, layout.REFUSED)
    entries = list(doc["refused"])
    for v in verdicts:
        if v.kind == "refused":
            with language.reading(language_of(v.player)):
                entries.append({"commit": v.commit, "author": v.author, "move_number": v.at, "reason": v.shown(),
                                **({"move_file": v.path} if v.path else {})})
    earlier = doc.get("earlier") or {"count": 0, "in": last}
    dropped = max(0, len(entries) - REFUSED_KEPT)
    if dropped:  # the oldest go; if some of them were listed before, the last refereed commit lists them
        earlier = {"count": earlier["count"] + dropped, "in": last if doc["refused"] else earlier["in"]}
        entries = entries[dropped:]
    out = layout.refused_doc(game_id, entries)
    if earlier["count"]:
        out["earlier"] = earlier
    return layout.dump("refused", out, layout.REFUSED).encode()


def played_before(desk: desks.Desk, last_public: bytes | None) -> list[dict]:
    """The public log entries played in the referee's game directory since the last refereed commit (`last_public`:
    its public.yaml), before this run judged anything: the organiser's `pbem tick`, `replace` or `move --text`."""
    from ..store import yamlio
    now = engine.status(desk.gd)["move_number"]
    try:
        then = yamlio.loads(last_public or b"")["move_number"]
    except (PbemError, TypeError, KeyError):
        return []
    if now <= then:
        return []
    return [entry for entry in engine.read_log(desk.gd)["entries"] or [] if then <= entry["number"] < now]


def move_line(entry: dict, game_type: str | None = None) -> str:
    """A public log entry in a refereed commit's message: `Move 12 (bob, by the referee: timeout (bot)): pass`."""
    number, player = entry["number"], entry["player"]
    if entry["moves"] == [engine.REPLACE]:
        if entry.get("reason"):
            return _("Move {number}: {reason} (seat {player}).", number=number, player=player,
                     reason=reason_text(entry))
        return _("Move {number}: the seat changed hands (seat {player}).", number=number, player=player)
    moves = moves_text(entry["moves"], game_type)
    if entry["by"] == "referee":
        # TRANSLATORS: a line of a refereed commit's message; {reason}: why the referee played (a timeout).
        return _("Move {number} ({player}, by the referee: {reason}): {moves}", number=number, player=player,
                 reason=reason_text(entry) or "", moves=moves)
    if entry["by"] == BOT:
        # TRANSLATORS: a line of a refereed commit's message; {bot}: the bot ("greedy bot").
        return _("Move {number} ({player}, the referee's {bot}): {moves}", number=number, player=player,
                 bot=bot_name(seat_level(entry)), moves=moves)
    return _("Move {number} ({player}): {moves}", number=number, player=player, moves=moves)


def moves_title(entries: list[dict]) -> str:
    """`pbem: move 12 by alice, move 13 for bob`: the moves a commit records, each with whom it was played by or
    for (the referee plays for a seat); a seat handed on as such."""
    def named(entry: dict) -> str:
        if entry["moves"] == [engine.REPLACE]:
            return _("seat {player} handed on (move {number})", player=entry["player"], number=entry["number"])
        if entry["by"] in ("referee", BOT):
            return _("move {number} for {player}", number=entry["number"], player=entry["player"])
        return _("move {number} by {player}", number=entry["number"], player=entry["player"])
    return title([named(entry) for entry in entries])


def title(parts: list[str]) -> str:
    """A refereed commit's first line: what it records, after `pbem:` (git's one-line logs show it)."""
    # TRANSLATORS: the first line of the referee's commit; {what}: what the commit records (moves, a new key).
    return _("pbem: {what}", what=joined(parts))


def summary(run, game_type: str | None = None) -> list[str]:
    """The lines of a refereed commit's message (the first its title), in the language being read: the game's
    own, as the referee's run sets it (every player reads the one history)."""
    accepted = [v.result for v in run.verdicts if v.kind == "accepted"]
    refused = [v for v in run.verdicts if v.kind == "refused"]
    talked = [v.result for v in run.verdicts if v.kind == "talk"]
    if accepted:
        head = title([_("move {number} by {player}", number=r["number"], player=r["player"]) for r in accepted])
    elif run.languages:
        head = title([_("a language for {players}", players=joined(run.languages))])
    elif talked:
        # TRANSLATORS: the title of a commit that records players' messages; {players}: who sent them.
        head = title([_("talk by {players}", players=joined(dict.fromkeys(m["from"] for m in talked)))])
    elif refused:
        head = title([ngettext("{count} commit refused", "{count} commits refused", len(refused),
                               count=len(refused))])
    elif run.before:
        head = moves_title(run.before)
    else:
        head = title([_("the clock") if run.clock and run.clock["changed"] else
                      _("a new key for {players}", players=joined(run.rekeyed)) if run.rekeyed else
                      _("the CI files install pbem from a new source") if run.ci_changed else
                      _("the players' pre-commit hooks") if run.added else
                      # TRANSLATORS: the title of a commit of a referee in CI that only sent (or gave up) the mails
                      # an earlier run of it could not send (the mail server was down then).
                      _("the mails an earlier run owed") if run.owed_sent or run.owed_dropped else
                      _("the organiser's changes to the game (a deadline, a vacation or a seat's address)")])
    lines = [head[:120]]
    by_referee = [entry for r in accepted for entry in r.get("referee_moves", [])] + \
        (run.clock or {}).get("entries", [])
    moves = [(r["number"], _("Move {number} ({player}): {moves}", number=r["number"], player=r["player"],
                             moves=moves_text(r["public_moves"], game_type))) for r in accepted]
    moves += [(e["number"], move_line(e, game_type)) for e in [*run.before, *by_referee]]
    lines += [line for _number, line in sorted(moves)]
    lines += talk.commit_lines(talked)
    lines += [_("Clock: {event}", event=line) for line in clock_lines(run.clock)]
    lines += [_("New key: {player}'s view is encrypted to it from this commit.", player=seat) for seat in run.rekeyed]
    lines += [_("{player}'s seat is played by the referee's bot: its view is published to no one from this commit.",
                player=seat) for seat in run.botted]
    lines += [_("{player}'s seat is a player's again: their view goes by mail until the referee registers their "
                "key.", player=seat) for seat in run.unbotted]
    lines += [language_line(seat, code) for seat, code in run.languages.items()]
    lines += [_("Added {path} ({what}): this game was started by an earlier pbem, which did not write it.",
                path=path, what=PBEM.stored(ADDED[path])) for path in run.added]
    lines += [_("Refused {commit} ({who}): {reason}", commit=v.commit[:10], who=_who(v),
                reason=v.shown().splitlines()[0][:200]) for v in refused[:REFUSALS_NAMED]]
    if len(refused) > REFUSALS_NAMED:
        more = len(refused) - REFUSALS_NAMED
        lines.append(ngettext("Refused {count} more commit (their commits are in the history; refused.yaml lists "
                              "the newest).", "Refused {count} more commits (their commits are in the history; "
                              "refused.yaml lists the newest).", more, count=more))
    lines.append(_("The game is over.") if run.finished else _("Next: move {number}.", number=run.move_number))
    return lines


def language_line(player: str, code: str) -> str:
    """A seat's new language in a refereed commit's message."""
    from ..text.language import LANGUAGES
    if not code:
        return _("{player} reads the game's language from now on.", player=player)
    # TRANSLATORS: {language}: the language's own name (français, 繁體中文); {code}: its code (fr, zh-Hant).
    return _("{player} reads {language} ({code}) from now on.", player=player, language=LANGUAGES[code][0], code=code)


def clock_lines(ticked: dict | None) -> list[str]:
    """What the clock did, a line an event, in the language being read."""
    if not ticked:
        return []
    lines = []
    for event in ticked["events"]:
        player, number = event["player"], event["move_number"]
        kind = event["kind"]
        if kind == "remind":
            lines.append(_("reminded {player} (move {number})", player=player, number=number))
        elif kind == "late":
            lines.append(_("{player} is late, waiting (move {number})", player=player, number=number))
        elif kind == "timeout":
            # TRANSLATORS: {policy}: what the referee played for the late player, as the game's clock names it.
            lines.append(_("{player} timed out, the referee played for them ({policy}) (move {number})",
                           player=player, policy=PBEM.stored(str(event.get("policy")), "reason"), number=number))
        else:
            lines.append(ngettext("{player} counts as resigned after {count} timeout (move {number})",
                                  "{player} counts as resigned after {count} timeouts (move {number})",
                                  int(event.get("strikes") or 0), player=player, count=event.get("strikes"),
                                  number=number))
    return lines
