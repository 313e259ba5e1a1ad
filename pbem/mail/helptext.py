"""The referee's help by mail, in the language being read: how to send a move, how this game's moves are written
and queued (its forms, decisions, choices, conditions and standing orders, from meta.yaml), how to play by mail
at all (the answer to `help` about no game)."""
from __future__ import annotations

from ..engine import engine
from ..messages import QUEUE_HELP, Words, _
from ..text import report


def queue_words(*words: str) -> dict[str, Words]:
    """pbem's words (the queue's, `resign`) by name, each said as the reader's glossary names it (`ensuite`)."""
    return {word: Words("pbem", word) for word in words}


def title(gd: engine.GameDir) -> str:
    """The game's title in the language being read."""
    return report.game_text(gd.game.id, gd.game.title)


def _meta_text(gd: engine.GameDir, text: str, context: str | None = None) -> str:
    """A help text of the game's meta.yaml (a decision; a queue form's help, context QUEUE_HELP) in the language
    being read."""
    return report.game_text(gd.game.id, text, context)


def password_line(password: str) -> str:
    """A password as a welcome shows it, alone on its line, the word the referee reads before it."""
    # TRANSLATORS: the word before the colon is what the referee reads in a player's mail: keep it in English.
    return "    " + _("Password: {password}", password=password)


def how_to_move(gd: engine.GameDir, move_number: int | None) -> str:
    # TRANSLATORS: {tag} is the game's tag as the subject shows it, e.g. [g1].
    lines = [_("How to move: reply to this mail (keep the {tag} in the subject) and write, above or below the quoted "
               "text:", tag=f"[{gd.id}]"),
             "",
             # TRANSLATORS: "Password:" is read by the referee in any language; translate only <your password>.
             "    " + _("Password: <your password>")]
    if move_number is not None:
        # TRANSLATORS: the line the referee reads in a player's mail: keep "Move-Number:" in English.
        lines.append("    " + _("Move-Number: {number}", number=move_number))
    lines += ["    " + _("<your move, one decision a line>"), "",
              # TRANSLATORS: {next}, {else}, {if}, {standing}: the queue's words in the reader's language (the
              # glossary's); `help` is a command the referee reads in English: keep it.
              _("Steps for later may follow your move: they wait in your queue, which only you see, and are played "
                "when their decisions come (`{next}` between turns, `A {else} B`, `A {if} CONDITION`, `{standing} "
                "WORD: STEP`; see `help`).", **queue_words("next", "else", "if", "standing")),
              # TRANSLATORS: {resign}: the word in the reader's language; status, moves, help, `queue` and `queue
              # cancel` are commands the referee reads in English: keep them.
              _("Other commands (one on a line, with your password): status, moves, help, {resign}; `queue` with "
                "steps below it sets your queue without a move (`queue cancel` drops it).",
                **queue_words("resign"))]
    return "\n".join(lines)


def notation_help(gd: engine.GameDir) -> str:
    domain = gd.game.package
    forms = sorted({t.shape for t in gd.game.templates})
    decisions = gd.game.meta.get("decisions", {})
    parts = [_("Moves of {title} are written as:", title=title(gd)),
             *[f"    {Words(domain, form).render()}" for form in forms]]
    if decisions:
        # what each decision is (its name in meta.yaml is the code's, never shown)
        parts += ["", _("Decisions:"), *[f"    {_meta_text(gd, what)}" for what in decisions.values()]]
    parts += ["", _("Several moves of one turn go on separate lines (or one line with ';' between them); they are "
                    "applied in order, all or nothing.")]
    return "\n".join(parts + ["", queue_help(gd)])


def queue_help(gd: engine.GameDir) -> str:
    """How to queue steps in this game: the notation's words, and the game's choice forms, conditions and standing
    orders (meta.yaml `queues:`)."""
    from ..play import plans
    vocab, domain = plans.vocabulary(gd.game), gd.game.package
    # TRANSLATORS: the lines of the queue's help; {next}, {else}, {if}, {and}, {not}, {standing}, {cancel}: the
    # queue's words in the reader's language (the glossary's names; a player may write them in English too).
    lines = [_("Your queue (only you see it; each step is played when its decision comes, as if you sent it then):"),
             "    " + _("the lines after your move are for later; `{next}` starts your next turn",
                        **queue_words("next")),
             "    " + _("`A {else} B {else} C`: the first of them that is legal then; `A {if} CONDITION {and} {not} "
                        "CONDITION`", **queue_words("else", "if", "and", "not")),
             "    " + _("a step that is not legal when its decision comes stops the queue: you are asked, and told "
                        "why"),
             "    " + _("`{standing} WORD: STEP` answers every such decision until `{standing} WORD: {cancel}`, or "
                        "until an event disarms it; `{cancel}` drops your queue",
                        **queue_words("standing", "cancel"))]
    if vocab.choices:
        lines += [_("Forms chosen when the decision comes:"),
                  *[explained(Words(domain, template.shape).render(),
                              _meta_text(gd, vocab.choices[template.action]["help"], QUEUE_HELP))
                    for template in vocab.choice_templates]]
    if vocab.conditions:
        lines += [_("Conditions (they read only what you may see):"),
                  *[explained(Words(domain, template.shape).render(),
                              _meta_text(gd, vocab.conditions[template.action]["help"], QUEUE_HELP))
                    for template in vocab.condition_templates]]
    if vocab.standing:
        lines += [_("Standing orders:"),
                  *[_standing_line(gd, word, spec, vocab) for word, spec in vocab.standing.items()]]
    return "\n".join(lines)


def _standing_line(gd: engine.GameDir, word: str, spec: dict, vocab) -> str:
    order, what = Words(gd.game.package, f"standing {word}").render(), _meta_text(gd, spec["help"], QUEUE_HELP)
    if not spec["disarm"]:
        return explained(order, what)
    events = [_meta_text(gd, vocab.disarm[event]["help"], QUEUE_HELP) for event in spec["disarm"]]
    # TRANSLATORS: {events}: what disarms a standing order (the game's own texts, listed).
    return explained(order, _("{what} (disarmed when {events})", what=what, events=events))


def explained(form: str, what: str) -> str:
    """A line of the queue's help: a form of the notation and what it does."""
    # TRANSLATORS: {form}: a form, condition or standing order as a player writes it; {what}: what it does.
    return "    " + _("{form}: {what}", form=form, what=what)


def general_help(referee: str) -> str:
    # TRANSLATORS: the answer to `help` about no game. The words before the colons (Game:, Password:, Move-Number:)
    # are read by the referee in English: keep them; translate the words in <…> and the explanations.
    return "\n".join([
        _("This is the pbem referee. It plays board games by mail: you answer the last report with your move."),
        "",
        _("Write to it from the address you registered, and put in your mail:"),
        "",
        "    " + _("Game: <game id>          (or keep the [game-id] tag in the subject when you reply)"),
        "    " + _("Password: <your password>"),
        "    " + _("Move-Number: <n>         (optional: the move number of the last report)"),
        "    " + _("<your move, one decision a line>"),
        "",
        # TRANSLATORS: {resign}: the word in the reader's language; status, moves and help are read in English.
        _("Instead of a move you may write one command: status, moves (your legal moves), help, {resign}.",
          **queue_words("resign")),
        _("Quoted text and your signature are ignored; attachments are ignored."),
        _("The organiser of your game gave you its id and your password; the referee's address is {address}.",
          address=referee),
    ])
