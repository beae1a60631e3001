"""Open games: seats to fill by mail (JOIN, LEAVE, CREATE), and the start once they are filled.

An open game is a ``games`` row with status ``open``, an ``open_games`` row
(how many seats, how many are enough for ``gm start``) and one ``players``
row per seat taken, with its password hash; it has no state: the rules'
initial state is made at the start, with the names that joined, by
``begin_play`` (which ``gm new`` uses too).  The game starts by itself when
its last seat is taken, or when the GM says ``gm start`` once ``min`` have
joined; every player then gets the welcome and the first report.

The welcome is sent by a function handed in (gm.service.people.mailcommands.send_welcome):
it lists the mail commands, which live above this module.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable

from games import registry
from games.base import GameError
from games.text import mark, Plural, reason, Text
from gm.core import options as service_options
from gm.core import addresses, passwords
from gm.core.later import later
from gm.core.model import GameView, ServiceError, Status, Seat
from gm.mail.inbound import Inbound
from gm.present.reports import OBSERVER
from gm.service.outgoing import observers, reportmail, reports
from gm.service.people import credentials, guessing
from gm.service.table import deadlines, games
from gm.service.outgoing.answers import done, refuse
from gm.service.context import Context
from gm.store.locks import retried

# (ctx, view, seat, password or None, the reports of the start when several seats are welcomed)
Welcome = Callable[[Context, GameView, Any, "str | None", "reportmail.TurnMail | None"], None]
NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
MAX_NAME = 20  # characters of a player's name taken by JOIN
RATED = "RATED"  # CREATE's last word for a rated game, where the config allows it (player_rated)
MAX_OPEN_CREATED = 3  # open games one address may have made by CREATE and still waiting
RESERVED_NAMES = {"all", "gm"}  # PRESS TO ALL / GM mean something else
GAME_TAKEN = mark("there is already a game {game}")


def is_open(ctx: Context, game_id: str) -> bool:
    row = ctx.store.games.game(game_id.strip().lower())
    return row is not None and row.status == Status.OPEN


def check_game_id(game_id: str) -> str:
    """A new game's id as stored (lower case); ServiceError if it is not one."""
    return games.valid_new_game_id(game_id)


def check_name(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or None (a name is typed after PRESS TO)."""
    if not name or len(name) > MAX_NAME or not all(c in NAME_CHARS for c in name):
        return Text("a player's name is one word of at most {most} ASCII letters, digits, - and _ (no "
                    "spaces, no accents: the others type it after PRESS TO)", most=MAX_NAME)
    if name.lower() in RESERVED_NAMES:
        return Text("{name} means something else in PRESS TO; choose another name", name=name)
    return None


# --- opening --------------------------------------------------------------------------
def check_open(ctx: Context, kind: str, game_id: str, seats: int, min_seats: int | None = None,
               options: dict[str, str] | None = None, seed: int = 0):
    """(rules, game id as stored, min seats) of a game that may be opened so; ServiceError (with
    nothing made) for an unknown kind, an id taken or malformed, a seat count the rules do not
    take, or bad options."""
    try:
        rules = registry.get(kind)
    except (KeyError, GameError, ValueError):
        raise ServiceError(Text("there is no game kind {kind} (kinds: {kinds})", kind=repr(kind),
                                kinds=", ".join(registry.available()))) from None
    game_id = check_game_id(game_id)
    min_seats = seats if min_seats is None else min_seats
    if not rules.min_players <= min_seats <= seats <= rules.max_players:
        raise ServiceError(Text("{title} takes {least} to {most} players: --open {seats} --min {min_seats} "
                                "cannot be; no game was opened", title=rules.title, least=rules.min_players,
                                most=rules.max_players, seats=seats, min_seats=min_seats))
    options = dict(options or {})
    service_options.split_options(options, rules.options)
    for count in {seats, min_seats}:  # the options must hold for any number that may start
        rules.setup([f"seat{i}" for i in range(count)], dict(options), seed)  # OptionError if bad
    if ctx.store.games.game(game_id):
        raise ServiceError(Text(GAME_TAKEN, game=game_id))
    return rules, game_id, min_seats


@retried
def open_game(ctx: Context, kind: str, game_id: str, seats: int, min_seats: int | None = None,
              seed: int | None = None, options: dict[str, str] | None = None,
              created_by: str = "gm") -> str:
    """A game with ``seats`` seats for players to JOIN; refused (ServiceError) with nothing made
    for an unknown kind, a seat count the rules do not take, or bad options."""
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    rules, game_id, min_seats = check_open(ctx, kind, game_id, seats, min_seats, options, seed)
    options = dict(options or {})
    service = service_options.split_options(options)
    now = ctx.clock()
    with ctx.store.write(games=[game_id]):  # the new game's id: a second opener of it waits
        if ctx.store.games.game(game_id):
            raise ServiceError(Text(GAME_TAKEN, game=game_id))
        ctx.store.games.add_game(game_id, rules.kind, seed, json.dumps(options), now, status=Status.OPEN.value)
        ctx.store.selfservice.add_open_game(game_id, seats, min_seats, created_by)
        deadlines.save_settings(ctx.store, game_id, service)
        ctx.store.history.log(game_id, 0, created_by, "open",
                              f"{rules.kind}, {seats} seats (starts with {min_seats} on gm start), seed {seed}", now)
    return Text("game {game} is open: {seats} seats to fill (players send JOIN {game} <name>)", game=game_id,
                seats=seats)


def open_summary(ctx: Context, game_id: str) -> dict:
    """What LIST shows of an open game: kind, seats, who joined, its options."""
    row, open_row = ctx.store.games.game(game_id), ctx.store.selfservice.open_game(game_id)
    assert open_row is not None  # LIST shows open games only
    rules = registry.get(row.kind)
    joined = [p.name for p in ctx.store.seats.players(game_id)]
    options = json.loads(row.options) | ctx.store.games.settings_of(game_id)
    return {"id": game_id, "title": rules.title, "kind": rules.kind, "seats": open_row.seats,
            "min": open_row.min_seats, "joined": joined, "free": open_row.seats - len(joined),
            "options": ", ".join(f"{k}={v}" for k, v in sorted(options.items()))}


# --- JOIN, LEAVE, CREATE ---------------------------------------------------------------
# JOIN and CREATE need no password, so they take effect only when the From address answers the
# code gm mails it (gm.service.people.optin): *_request checks a line when it comes and again when it
# is confirmed; take_seat and create_game do it, once confirmed.
def join_request(ctx: Context, args: str, sender: str) -> str:
    """The JOIN line to confirm (``JOIN <id> <name>``) if the seat may be taken now;
    ServiceError (the answer) if not."""
    words = args.split()
    if words and words[0].upper() == "TOURNAMENT" and (len(words) != 2 or not ctx.store.games.game("tournament")):
        return later("gm.service.people.tournamentmail", "join_request")(ctx, words[1:], sender)
    if len(words) != 2:
        raise ServiceError(Text("JOIN {args}: write JOIN <game id> <your name>, e.g. JOIN nb7 ada. Send "
                                "LIST for the games open here.", args=args[:60]))
    game_id, name = words[0].lower(), words[1]
    problem = join_problem(ctx, game_id, name, sender)
    if problem:
        raise ServiceError(Text("JOIN {game} {name}: {problem}", game=game_id[:30], name=name[:30],
                                problem=problem))
    return f"JOIN {game_id} {name}"


def take_seat(ctx: Context, game_id: str, name: str, sender: str, welcome: Welcome,
              sender_name: str = "") -> list[str]:
    """The confirmed JOIN: the seat is the sender's (with the display name of their From); the
    lines of the answer, with the seat's password (the caller sends it as a secret).  Starts the
    game when it is full."""
    secret = passwords.generate()
    taken = ctx.store.seats.players(game_id)
    ctx.store.seats.add_player(game_id, len(taken), name, sender, passwords.hash_password(secret),
                               display_name=addresses.display_name(sender_name))
    ctx.store.history.log(game_id, 0, sender, "join", f"{name} took seat {len(taken) + 1}", ctx.clock())
    info = open_summary(ctx, game_id)
    lines = [Text("You have joined game {game} ({title}) as {name}.", game=game_id, title=info["title"],
                  name=name), "",
             Text("Your password: {secret}", secret=secret), "",
             Text("With it you can leave the game before the start (GAME {game} PASSWORD <password> and "
                  "LEAVE on the next line). Once the game runs you can answer its reports without it. "
                  "PASSWORD RESET {game} mails a new one to this address.", game=game_id)
             if ctx.config.reply_tokens else
             Text("With it you can leave the game before the start (GAME {game} PASSWORD <password> and "
                  "LEAVE on the next line). Orders need it once the game runs. PASSWORD RESET {game} "
                  "mails a new one to this address.", game=game_id), ""]
    if info["free"]:
        lines.append(Plural("Players so far: {players}; {n} seat still free. The game starts when they are "
                            "taken, and everyone then gets a welcome and the first report.",
                            "Players so far: {players}; {n} seats still free. The game starts when they "
                            "are taken, and everyone then gets a welcome and the first report.",
                            players=", ".join(info["joined"]), n=info["free"]))
    else:
        lines.append(Text("Every seat is taken ({players}): the game starts now; the welcome and the first "
                          "report follow.", players=", ".join(info["joined"])))
        start(ctx, game_id, welcome, who=f"{game_id}: seats full")
    return lines


def join_problem(ctx: Context, game_id: str, name: str, sender: str) -> str | None:
    row = ctx.store.games.game(game_id)
    if row is None:
        return Text("there is no game called {game} here. Send LIST for the games open here.",
                    game=repr(game_id))
    if row.status != Status.OPEN:
        return Text("game {game} has already started; only open games take players (send LIST).",
                    game=game_id)
    if not sender:
        return Text("your mail has no usable From address to register.")
    open_row, taken = ctx.store.selfservice.open_game(game_id), ctx.store.seats.players(game_id)
    assert open_row is not None  # an open game has its open_games row
    if len(taken) >= open_row.seats:
        return Text("game {game} is full ({taken} of {seats} seats taken).", game=game_id, taken=len(taken),
                    seats=open_row.seats)
    if ctx.store.seats.players_at(game_id, sender):
        seat = ctx.store.seats.players_at(game_id, sender)[0].name
        return Text("this address has already joined game {game} (as {seat}); one seat per address.",
                    game=game_id, seat=seat)
    why = check_name(name)
    if why:
        return Text("{why}.", why=why)
    if any(p.name.lower() == name.lower() for p in taken):
        return Text("someone in game {game} is already called {name}; choose another name.", game=game_id,
                    name=name)
    return None


def create_request(ctx: Context, args: str, sender: str) -> str:
    """The CREATE line to confirm (``CREATE <kind> <id> <seats>``) if the config allows it and the
    game can be opened now; ServiceError (the answer) if not."""
    words = args.split()
    allowed = ctx.config.player_create_kinds
    if not allowed:
        raise ServiceError(Text("Players cannot open games by mail on this server; ask the game master. "
                                "Send LIST for the games open here."))
    rated = len(words) > 2 and words[-1].upper() == RATED
    words = words[:-1] if rated else words
    if len(words) not in (2, 3) or (len(words) == 3 and not words[2].isdecimal()):
        raise ServiceError(Text("CREATE {args}: write CREATE <kind> <game id> [<seats>] [RATED], e.g. CREATE "
                                "{kind} nb7 4.", args=args[:60], kind=allowed[0]))
    if rated and not ctx.config.player_rated:
        raise ServiceError(Text("CREATE {args}: players cannot open rated games on this server (its rated "
                                "games are made by the game master or by tournaments, so that no throwaway "
                                "address can farm a rating); send it without RATED.", args=args[:60]))
    kind = words[0].lower()
    if ctx.store.selfservice.open_games_created_by(sender) >= MAX_OPEN_CREATED:
        raise ServiceError(Text("This address has {most} games waiting for players already; one of them "
                                "must start (or be deleted) before you open another.", most=MAX_OPEN_CREATED))
    if kind not in allowed:
        raise ServiceError(Text("CREATE {kind}: players may open only these kinds here: {kinds}.",
                                kind=kind[:30], kinds=", ".join(allowed)))
    try:
        rules = registry.get(kind)
        seats = int(words[2][:3]) if len(words) == 3 else rules.min_players
        _, game_id, _ = check_open(ctx, kind, words[1], seats)
    except (ServiceError, GameError, KeyError, ValueError) as exc:
        raise ServiceError(Text("CREATE {args}: {why}.", args=args[:60], why=reason(exc))) from None
    return f"CREATE {kind} {game_id} {seats}" + (f" {RATED}" if rated else "")


def create_game(ctx: Context, kind: str, game_id: str, seats: int, sender: str, rated: bool = False) -> str:
    """The confirmed CREATE: the game is open (rated=true with RATED); what to tell the sender."""
    text = open_game(ctx, kind, game_id, seats, options={"rated": "true"} if rated else None,
                     created_by=sender or "mail")
    return Text("{opened}. Send JOIN {game} <name> to take a seat yourself.", opened=text, game=game_id)


def leave(ctx: Context, game_id: str, player: Seat, inbound: Inbound) -> None:
    """LEAVE before the start (the player's password checked by the caller): the seat is free, and
    its codes end with it (one who joins later under the same name inherits none)."""
    credentials.end_all(ctx, game_id, player.name, "LEAVE")
    ctx.store.seats.remove_player(game_id, player.name)
    ctx.store.seats.renumber_seats(game_id)
    ctx.store.history.log(game_id, 0, player.email, "leave", f"{player.name} left before the start",
                          ctx.clock())
    done(ctx, inbound, None, Text("Left {game}", game=game_id), Text(
        "You have left game {game}; your seat ({seat}) is free again. Nothing more will be sent to you "
        "about it.", game=game_id, seat=player.name))


def leave_running(ctx: Context, view, player, args: str, inbound: Inbound) -> None:
    """LEAVE in a game that runs: refused; RESIGN is how a player leaves a game under way."""
    refuse(ctx, inbound, view, Text("Not left"), Text(
        "Game {game} has started: LEAVE frees a seat only before the start. To leave a game under way "
        "send RESIGN (the game's rules say what becomes of your seat).", game=view.id))


def wants_leave(commands: list[str]) -> bool:
    return any(c.split()[0] == "LEAVE" for c in commands if c.split())


def game_mail(ctx: Context, inbound: Inbound, game_id: str, password: str | None,
              commands: list[str]) -> str:
    """A mail naming an open game (GAME nb7 PASSWORD ..., or LEAVE nb7): only LEAVE can be done
    before the start.  Its password is checked as in a running game, wrong ones counted and
    locked out (gm.service.people.guessing).  Returns the outcome's detail."""
    view = games.load_seats(ctx.store, game_id)
    seat, refused = guessing.check_password(ctx, view, inbound.sender, password)
    wants = wants_leave(commands)
    if seat is not None and wants:
        leave(ctx, view.id, seat, inbound)
        return f"{seat.name} left {view.id}"
    game_id = view.id
    info = open_summary(ctx, game_id)
    if wants and refused == "locked":
        text = Text("LEAVE {game}: nobody left the game. After {count} wrong passwords within the hour, "
                    "gm refuses passwords for this seat or from this address for an hour, the right one "
                    "too. Send PASSWORD RESET {game} from the address your seat is registered to, or try "
                    "again in an hour.", game=game_id, count=guessing.FAILURE_LIMIT)
    elif wants:
        text = Text("LEAVE {game}: the password is missing or wrong, so nobody left the game. Write the "
                    "password of your JOIN reply: GAME {game} PASSWORD <password>, and LEAVE on the next "
                    "line.", game=game_id)
    else:
        text = Text("Game {game} has not started: {joined} of {seats} seats are taken. Orders are read "
                    "once it starts; you will get a welcome and the first report then. Before the start "
                    "you can only leave (LEAVE {game}, with your password).", game=game_id,
                    joined=len(info["joined"]), seats=info["seats"])
    refuse(ctx, inbound, None, Text("Not started"), text)
    return text


# --- the start ------------------------------------------------------------------------
def start(ctx: Context, game_id: str, welcome: Welcome, who: str = "gm", force: bool = False) -> str:
    """Start an open game with the players who joined (all seats, or at least min with ``force``:
    gm start).  Runs in the caller's transaction, or its own."""
    with ctx.store.write(games=[game_id]):
        row, open_row = ctx.store.games.game(game_id), ctx.store.selfservice.open_game(game_id)
        if row is None:
            raise ServiceError(f"no game called {game_id!r}")
        if row.status != Status.OPEN or open_row is None:
            raise ServiceError(f"game {game_id} is not open for players (it is {row.status})")
        joined = ctx.store.seats.players(game_id)
        need = open_row.seats if not force else open_row.min_seats
        if len(joined) < need:
            raise ServiceError(f"game {game_id} has {len(joined)} player(s); it needs {need} to start "
                               f"({open_row.seats} seats, --min {open_row.min_seats})")
        rules = registry.get(row.kind)
        ctx.store.selfservice.close_open_game(game_id)
        begin_play(ctx, rules, game_id, row.seed, json.loads(row.options),
                   [p.name for p in joined], welcome, {}, who)
    return f"game {game_id} started with {', '.join(p.name for p in joined)}; welcome mails queued"


def begin_play(ctx: Context, rules, game_id: str, seed: int, options: dict, names: list[str],
               welcome: Welcome, secrets: dict[str, str], who: str = "gm") -> GameView:
    """The rules' first state for these players, stored, the turn opened, a welcome to each
    (``secrets``: passwords to show in it, if the players do not have them yet).  Inside a write;
    the game's row and seats exist already."""
    now = ctx.clock()
    state = rules.start(rules.setup(names, dict(options), seed), now)  # OptionError on bad options
    ctx.store.turns.add_state(game_id, rules.turn(state), rules.dump(state), now)
    ctx.store.games.set_game_status(game_id, Status.ACTIVE.value, now)
    ctx.store.history.log(game_id, rules.turn(state), who, "create",
                          f"{rules.kind} for {', '.join(names)}, seed {seed}", now)
    view = games.load(ctx.store, game_id)
    deadlines.open_turn(ctx.store, view)
    start_reports = reportmail.TurnMail(ctx, view, [])  # each picture drawn once for every welcome
    for player in view.players:
        welcome(ctx, view, player, secrets.get(player.name), start_reports)
    if observers.following(ctx, game_id):  # they followed the open game: the first report
        observers.send(ctx, view, Text("{title} report", title=rules.title),
                       reports.report_body(ctx, view, OBSERVER, []), kind="report")
    return view
