"""Tournaments by mail: JOIN TOURNAMENT, WITHDRAW TOURNAMENT, STANDINGS; and the standings as text.

JOIN TOURNAMENT <id> <name> and WITHDRAW TOURNAMENT <id> need no password: like JOIN of an open
game they take effect only once the From address answers the code gm mails it
(gm.service.people.optin, whose caps apply); a withdrawal must come from the address the entry
plays under.  STANDINGS <id> answers anyone, rate-limited as a stranger's HELP.  What these
replies show of a player is its public name, never an address.
"""

from __future__ import annotations

from gm.core.model import GameView, ServiceError
from gm.mail.inbound import Inbound
from gm.service.context import Context
from gm.service.people import tournaments as tour
from gm.store.tournaments import TournamentRow


def join_request(ctx: Context, words: list[str], sender: str) -> str:
    """The JOIN TOURNAMENT line to confirm, if the sender may enter now; ServiceError (the answer) if not."""
    if len(words) != 2:
        raise ServiceError("write JOIN TOURNAMENT <tournament id> <your name>, e.g. JOIN TOURNAMENT spring ada")
    row = tour.tournament(ctx, words[0])
    problem = tour.entry_problem(ctx, row, words[1], sender)
    if problem:
        raise ServiceError(f"JOIN TOURNAMENT {row.id} {words[1][:30]}: {problem}.")
    return f"JOIN TOURNAMENT {row.id} {words[1]}"


def join_confirmed(ctx: Context, tournament_id: str, name: str, sender: str) -> str:
    """The confirmed JOIN TOURNAMENT: entered (or pending the GM's approval); what to tell the sender."""
    told = tour.enter(ctx, tournament_id, name, sender, by_mail=True)
    return (told + ". Each round's game comes with its own welcome and password; send STANDINGS "
            f"{tournament_id} for the standings, WITHDRAW TOURNAMENT {tournament_id} to withdraw.")


def entry_of_address(ctx: Context, row: TournamentRow, sender: str) -> str:
    """The seat name of the entry playing under ``sender``; ServiceError when it has none."""
    for entry in ctx.store.tournaments.entries(row.id):
        if entry.status != tour.WITHDRAWN and tour.address_of(ctx, entry.player_id) == sender.lower():
            return entry.seat_name
    raise ServiceError(f"WITHDRAW TOURNAMENT {row.id}: this address has no entry in it.")


def withdraw_request(ctx: Context, args: str, sender: str) -> str:
    """The WITHDRAW TOURNAMENT line to confirm, from the entry's own address; ServiceError if not."""
    words = args.split()
    if len(words) != 2 or words[0].upper() != "TOURNAMENT":
        raise ServiceError("write WITHDRAW TOURNAMENT <tournament id>, from the address you entered with")
    row = tour.tournament(ctx, words[1])
    if row.status == tour.FINISHED:
        raise ServiceError(f"WITHDRAW TOURNAMENT {row.id}: the tournament is over.")
    entry_of_address(ctx, row, sender)
    return f"WITHDRAW TOURNAMENT {row.id}"


def withdraw_confirmed(ctx: Context, tournament_id: str, sender: str) -> str:
    """The confirmed WITHDRAW TOURNAMENT; what to tell the sender."""
    row = tour.tournament(ctx, tournament_id)
    told = tour.withdraw(ctx, row.id, entry_of_address(ctx, row, sender))
    return told + ". You will not be paired again."


def request_in_words(line: str) -> str:
    """A JOIN TOURNAMENT or WITHDRAW TOURNAMENT line in words, for the code mail."""
    words = line.split()
    if words[0] == "JOIN":
        return f"enter tournament {words[2]} as {words[3]} ({line})"
    return f"withdraw from tournament {words[2]}: you are not paired again ({line})"


def standings_lines(ctx: Context, row: TournamentRow) -> list[str]:
    """The standings and every round's tables, as text (public names only)."""
    info = tour.summary(ctx, row.id)
    lines = [f"Tournament {info['id']}: {info['kind']}, {info['format']}, round {info['round']} of "
             f"{info['rounds']} ({info['status']}{', rated' if info['rated'] else ''}).", ""]
    breaks = info["tiebreaks"]
    lines.append(f"{'#':>3}  {'player':<20} {'points':>6} {'games':>5}  " + "  ".join(breaks))
    for s in info["standings"]:
        shown = "  ".join(f"{t:>{len(name)}g}" for t, name in zip(s["tiebreaks"], breaks))
        lines.append(f"{s['place']:>3}  {s['name'][:20]:<20} {s['points']:>6g} {s['games']:>5}  {shown}"
                     + ("  (withdrew)" if s["withdrawn"] else ""))
    for played in info["rounds_played"]:
        lines += ["", f"Round {played['round']}:"]
        lines += [f"  {t['board']:>2}. {' - '.join(t['players'])}: {t['result']}" for t in played["tables"]]
        if played["byes"]:
            lines.append(f"  bye: {', '.join(played['byes'])}")
    return lines


def standings_command(ctx: Context, view: GameView | None, player: object, args: str, inbound: Inbound) -> None:
    """STANDINGS <id>: the tournament's standings and rounds; anyone may ask (rate-limited as HELP)."""
    words = args.split()
    try:
        if len(words) != 1:
            raise ServiceError("write STANDINGS <tournament id>, e.g. STANDINGS spring")
        row = tour.tournament(ctx, words[0])
    except ServiceError as exc:
        ctx.outbox.reply(inbound, None, "No standings", ctx.outbox.render("answer", lines=[str(exc)], game_id=None),
                         kind="error")
        return
    body = ctx.outbox.render("answer", lines=standings_lines(ctx, row), game_id=None)
    ctx.outbox.reply(inbound, None, f"Tournament {row.id}", body, kind="help")


def entry_lines(ctx: Context, row: TournamentRow) -> list[str]:
    """The entries (for the GM: `gm tournament show`), each with its status; public names only."""
    lines = ["", "Entries:"]
    lines += [f"  {tour.public_name(ctx, e.player_id)} (seat name {e.seat_name}): {e.status}"
              + (f" in round {e.withdrawn_round}" if e.withdrawn_round else "")
              for e in ctx.store.tournaments.entries(row.id)]
    return lines
