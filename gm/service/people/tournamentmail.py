"""Tournaments by mail: JOIN TOURNAMENT, WITHDRAW TOURNAMENT, STANDINGS; and the standings as text.

JOIN TOURNAMENT <id> <name> and WITHDRAW TOURNAMENT <id> need no password: like JOIN of an open
game they take effect only once the From address answers the code gm mails it
(gm.service.people.optin, whose caps apply); a withdrawal must come from the address the entry
plays under.  STANDINGS <id> answers anyone, rate-limited as a stranger's HELP.  What these
replies show of a player is its public name, never an address.
"""

from __future__ import annotations


from games.text import mark, reason, Text
from gm.core.model import GameView, ServiceError
from gm.mail.inbound import Inbound
from gm.service.context import Context
from gm.service.people import tournaments as tour
from gm.store.tournaments import TournamentRow


def join_request(ctx: Context, words: list[str], sender: str) -> str:
    """The JOIN TOURNAMENT line to confirm, if the sender may enter now; ServiceError (the answer) if not."""
    if len(words) != 2:
        raise ServiceError(Text("write JOIN TOURNAMENT <tournament id> <your name>, e.g. JOIN TOURNAMENT spring ada"))
    row = tour.tournament(ctx, words[0])
    problem = tour.entry_problem(ctx, row, words[1], sender)
    if problem:
        raise ServiceError(Text("JOIN TOURNAMENT {tournament} {name}: {problem}.", tournament=row.id,
                                name=words[1][:30], problem=problem))
    return f"JOIN TOURNAMENT {row.id} {words[1]}"


def join_confirmed(ctx: Context, tournament_id: str, name: str, sender: str) -> str:
    """The confirmed JOIN TOURNAMENT: entered (or pending the GM's approval); what to tell the sender."""
    told = tour.enter(ctx, tournament_id, name, sender, by_mail=True)
    return Text("{entered}. Each round's game comes with its own welcome and password; send STANDINGS "
                "{tournament} for the standings, WITHDRAW TOURNAMENT {tournament} to withdraw.", entered=told,
                tournament=tournament_id)


def entry_of_address(ctx: Context, row: TournamentRow, sender: str) -> str:
    """The seat name of the entry playing under ``sender``; ServiceError when it has none."""
    for entry in ctx.store.tournaments.entries(row.id):
        if entry.status != tour.WITHDRAWN and tour.address_of(ctx, entry.player_id) == sender.lower():
            return entry.seat_name
    raise ServiceError(Text("WITHDRAW TOURNAMENT {tournament}: this address has no entry in it.", tournament=row.id))


def withdraw_request(ctx: Context, args: str, sender: str) -> str:
    """The WITHDRAW TOURNAMENT line to confirm, from the entry's own address; ServiceError if not."""
    words = args.split()
    if len(words) != 2 or words[0].upper() != "TOURNAMENT":
        raise ServiceError(Text("write WITHDRAW TOURNAMENT <tournament id>, from the address you entered with"))
    row = tour.tournament(ctx, words[1])
    if row.status == tour.FINISHED:
        raise ServiceError(Text("WITHDRAW TOURNAMENT {tournament}: the tournament is over.", tournament=row.id))
    entry_of_address(ctx, row, sender)
    return f"WITHDRAW TOURNAMENT {row.id}"


def withdraw_confirmed(ctx: Context, tournament_id: str, sender: str) -> str:
    """The confirmed WITHDRAW TOURNAMENT; what to tell the sender."""
    row = tour.tournament(ctx, tournament_id)
    told = tour.withdraw(ctx, row.id, entry_of_address(ctx, row, sender))
    return Text("{withdrawn}. You will not be paired again.", withdrawn=told)


def request_in_words(line: str) -> str:
    """A JOIN TOURNAMENT or WITHDRAW TOURNAMENT line in words, for the code mail."""
    words = line.split()
    if words[0] == "JOIN":
        return Text("enter tournament {tournament} as {name} ({line})", tournament=words[2], name=words[3],
                    line=line)
    return Text("withdraw from tournament {tournament}: you are not paired again ({line})", tournament=words[2],
                line=line)


def standings_lines(ctx: Context, row: TournamentRow) -> list[str]:
    """The standings and every round's tables, as text (public names only)."""
    info = tour.summary(ctx, row.id)
    head = dict(tournament=info["id"], kind=info["kind"], format=in_words(info["format"]), round=info["round"],
                rounds=info["rounds"], status=in_words(info["status"]))
    lines = [Text("Tournament {tournament}: {kind}, {format}, round {round} of {rounds} ({status}, rated).", **head)
             if info["rated"] else
             Text("Tournament {tournament}: {kind}, {format}, round {round} of {rounds} ({status}).", **head), ""]
    breaks = info["tiebreaks"]
    lines.append(Text(HEADINGS, number="#", player=Text("player"), points=Text("points"), games=Text("games"),
                      tiebreaks=tiebreak_words(breaks)))
    for s in info["standings"]:
        shown = "  ".join(f"{t:>{len(name)}g}" for t, name in zip(s["tiebreaks"], breaks))
        line = f"{s['place']:>3}  {s['name'][:20]:<20} {s['points']:>6g} {s['games']:>5}  {shown}"
        lines.append(Text("{line}  (withdrew)", line=line) if s["withdrawn"] else line)
    for played in info["rounds_played"]:
        lines += ["", Text("Round {round}:", round=played["round"])]
        lines += [Text("  {board}. {players}: {result}", board=f"{t['board']:>2}", players=" - ".join(t["players"]),
                       result=t["result"]) for t in played["tables"]]
        if played["byes"]:
            lines.append(Text("  bye: {names}", names=", ".join(played["byes"])))
    return lines


HEADINGS = mark("{number:>3}  {player:<20} {points:>6} {games:>5}  {tiebreaks}")  # the standings' columns
TIEBREAK_WORDS = {"sum of ranks": mark("sum of ranks")}  # the others are names: Buchholz


def tiebreak_words(names: list[str]) -> str:
    """The tiebreaks' column headings, in the reader's language where they are words."""
    said = [Text(TIEBREAK_WORDS[name]) if name in TIEBREAK_WORDS else name for name in names]
    return said[0] if len(said) == 1 else "  ".join(said)  # two names: as they are


def in_words(word: str) -> str:
    """A tournament's format or state as a reader's mail says it (an unknown one as it is)."""
    return Text(tour.IN_WORDS[word]) if word in tour.IN_WORDS else word


def standings_command(ctx: Context, view: GameView | None, player: object, args: str, inbound: Inbound) -> None:
    """STANDINGS <id>: the tournament's standings and rounds; anyone may ask (rate-limited as HELP)."""
    words = args.split()
    try:
        if len(words) != 1:
            raise ServiceError(Text("write STANDINGS <tournament id>, e.g. STANDINGS spring"))
        row = tour.tournament(ctx, words[0])
    except ServiceError as exc:
        ctx.outbox.reply(inbound, None, Text("No standings"), ctx.outbox.render("answer", lines=[reason(exc)],
                                                                                game_id=None), kind="error")
        return
    body = ctx.outbox.render("answer", lines=standings_lines(ctx, row), game_id=None)
    ctx.outbox.reply(inbound, None, Text("Tournament {tournament}", tournament=row.id), body, kind="help")


def entry_lines(ctx: Context, row: TournamentRow) -> list[str]:
    """The entries (for the GM: `gm tournament show`), each with its status; public names only."""
    lines = ["", "Entries:"]
    lines += [f"  {tour.public_name(ctx, e.player_id)} (seat name {e.seat_name}): {e.status}"
              + (f" in round {e.withdrawn_round}" if e.withdrawn_round else "")
              for e in ctx.store.tournaments.entries(row.id)]
    return lines
