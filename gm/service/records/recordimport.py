"""`gm import`: a game record (its JSON form) replayed into a new game through the rules.

The record is checked against its JSON Schema, then replayed from its seed (RULINGS G1):
each move with the time the rules saw, and the position after it must hash as the record
says.  The first move that does not follow refuses the whole import, naming its turn, its seq
and why; nothing is stored.  A record that follows is written in one transaction as play
writes a game: the game, its seats (at the addresses the GM gives: a record names none),
every state with the orders row or GM override that made it, each seat's report of it, the
history line and the result.  The game is unrated whatever the record says; its seats get a
welcome (their password and the report) only when the GM asks for one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from games import registry
from games.base import Event, GameError
from gm.core import digest, passwords
from gm.core.model import ServiceError, Status
from gm.core.version import gm_version
from gm.present import recordtext
from gm.present import reports as present
from gm.service.context import Context
from gm.service.people import mailcommands
from gm.service.table.gamerecord import FORMAT, VERSION, position_hash
from gm.service.table import deadlines, games
from gm.store.locks import retried

OVERRIDES = ("rollback", "edit", "clock")  # the kinds of GM-made state a "set" move keeps


@dataclass
class Step:
    """One state of the record as replayed: the move that made it (None for the set-up), the
    state, and the events the rules told with it."""
    move: dict[str, Any] | None
    state: Any
    at: float  # when the rules made it (the set-up: when the game was created)
    events: list[Event] = field(default_factory=list)


@dataclass
class Imported:
    """A game made from a record: its id, the seats' new passwords, and what was done."""
    game_id: str
    passwords: dict[str, str]
    states: int
    finished: bool
    welcomed: bool

    def text(self) -> str:
        if self.welcomed:
            mail = "a welcome with its password queued to each seat still in (see: gm outbox)"
        elif self.finished:
            mail = "nothing mailed (the game is over)"
        else:
            mail = f"nothing mailed (gm seat reset {self.game_id} NAME -m WHY mails a seat a password)"
        status = "finished" if self.finished else "running"
        return f"game {self.game_id} imported: {self.states} states replayed, {status}, unrated; {mail}\n"


# --- reading a record ---------------------------------------------------------------------
def read_record(text: str | bytes) -> dict[str, Any]:
    """The record in ``text``, its JSON form, checked (check_record); ServiceError saying why not."""
    try:
        record = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ServiceError(f"not a game record in JSON ({exc}): gm import reads the JSON form of a "
                           "record (gm export ID --format json), not its text form") from None
    check_record(record)
    return record


def check_record(record: Any) -> None:
    """ServiceError unless ``record`` is a game record of the version this gm reads, valid
    against the record's JSON Schema."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ServiceError(f'not a game record: a record is a JSON object whose "format" is "{FORMAT}"')
    if record.get("version") != VERSION:
        raise ServiceError(f"a game record of format version {record.get('version')!r}: this gm reads "
                           f"version {VERSION}")
    import jsonschema  # only gm import and the record's tests need it

    schema = recordtext.schema()
    validator = jsonschema.validators.validator_for(schema)(schema)
    game = record.get("game")
    if isinstance(game, dict):  # not checked: the import is unrated whatever the record says
        record = {**record, "game": {**game, "rated": False}}
    error = jsonschema.exceptions.best_match(validator.iter_errors(record))
    if error is not None:
        where = "/".join(str(part) for part in error.absolute_path) or "its top level"
        raise ServiceError(f"the record does not follow the record's schema at {where}: {error.message[:300]}")


def seat_names(record: dict[str, Any]) -> list[str]:
    """The record's players in seat order."""
    return [p["name"] for p in sorted(record["players"], key=lambda p: p["seat"])]


# --- the replay -----------------------------------------------------------------------------
def replay(record: dict[str, Any]) -> tuple[Any, list[Step]]:
    """The rules of the record's kind and every state of the record rebuilt through them, the
    set-up first; ServiceError naming the first move whose position differs from the record's,
    or that the rules refuse."""
    game = record["game"]
    try:
        rules = registry.get(game["kind"])
        start = rules.start(rules.setup(seat_names(record), dict(game["options"]), game["seed"]),
                            game["created"])
    except (GameError, KeyError) as exc:
        raise ServiceError(f"the record's game cannot be set up: {exc}") from None
    if position_hash(rules, start) != record["start_position"]:
        raise ServiceError("the starting position (state 0) differs from the record: not the same "
                           "kind, options, seed or players")
    steps = [Step(None, start, game["created"])]
    for move in record["moves"]:
        steps.append(replay_move(rules, steps, move, seat_names(record)))
    return rules, steps


def replay_move(rules: Any, steps: list[Step], move: dict[str, Any], names: list[str]) -> Step:
    """The state ``move`` makes from the last of ``steps``, checked against the record's hash."""
    where = f"turn {move['turn']}, seq {move['seq']}"
    if move["seq"] != len(steps):
        raise ServiceError(f"{where}: the moves are not in seq order (seq {len(steps)} comes next); "
                           "nothing imported")
    if move["action"] in ("order", "takeback") and move.get("player") not in names:
        raise ServiceError(f"{where}: {move['action']} of {move.get('player')!r}, who holds no seat of "
                           "the record; nothing imported")
    try:
        state, events = made_by(rules, steps, move)
    except Exception as exc:  # GameError, or a rule module that trips over a malformed state or order
        why = str(exc) if isinstance(exc, GameError) else f"{type(exc).__name__}: {exc}"
        raise ServiceError(f"{where}: {what(move)}: {why}; nothing imported{hidden(move)}") from None
    # No hash where the record's view withholds a sealed order: the next position shown is checked.
    if move["position"] is not None and position_hash(rules, state) != move["position"]:
        raise ServiceError(f"{where}: the position after turn {move['turn']} differs from the record "
                           f"({what(move)}); nothing imported")
    return Step(move, state, move["at"], events)


def made_by(rules: Any, steps: list[Step], move: dict[str, Any]) -> tuple[Any, list[Event]]:
    """What the rules make of ``move`` after ``steps``, at its recorded time, as gm verify replays
    the move's orders row or GM override (gm.service.records.audit)."""
    current, at, action = steps[-1].state, move["at"], move["action"]
    if action == "takeback":  # RULINGS G9: the state before the move taken back, made again
        if len(steps) < 2:
            raise GameError("there is no move to take back")
        return games.restored_state(rules, steps[-2].state, current, move["player"], at), []
    if action == "set":  # the GM's position, taken as given
        return given_state(rules, current, move.get("state")), []
    result = games.replayed_move(rules, current, action, move["player"], move["text"], at)
    return result.state, list(result.events)


def given_state(rules: Any, current: Any, data: Any) -> Any:
    """The position a "set" move gives, as the rules read it; GameError if they cannot, or if it
    changes the players."""
    if not isinstance(data, dict):
        raise GameError('a "set" move carries its position as a JSON object ("state")')
    state = rules.load(data)
    if list(rules.players(state)) != list(rules.players(current)):
        raise GameError("the position changes the players")
    return state


def hidden(move: dict[str, Any]) -> str:
    """Why a move that the record withholds cannot be replayed (a seat's view of a running
    game), to follow a refusal; "" for a move given whole."""
    if move.get("withheld") or (move["action"] == "set" and move.get("state") is None):
        return (" (this record withholds it from its viewer: a running game imports from the GM's "
                "record, gm export ID)")
    return ""


def what(move: dict[str, Any]) -> str:
    """A move as the refusal names it."""
    action = move["action"]
    if action == "order":
        return f"{move['player']}'s order {move['text']!r}"
    if action == "takeback":
        return f"the takeback of {move['player']}'s move"
    return {"close": "the turn's close", "draw": "the draw", "set": "the game master's position"}[action]


# --- storing the game -----------------------------------------------------------------------
@dataclass
class NewGame:
    """What a replayed record becomes: ``seats`` (name, address, display name, password hash)
    in seat order; ``finished`` as the record's game was (or its rules say); ``welcome``: each
    seat's password to mail in a welcome, or None (no mail)."""
    record: dict[str, Any]
    game_id: str
    rules: Any
    steps: list[Step]
    seats: list[tuple[str, str, str, str]]
    finished: bool
    welcome: dict[str, str] | None
    who: str

    @property
    def names(self) -> list[str]:
        return [seat[0] for seat in self.seats]


def import_record(ctx: Context, record: dict[str, Any], game_id: str, addresses: dict[str, tuple[str, str]],
                  welcome: bool = False, who: str = "gm") -> Imported:
    """Replay ``record`` (checked with check_record) and store it as the new game ``game_id``.

    ``addresses``: each seat's (address, display name) by name, as the GM gave them (checked
    by the caller: gm.service.play.roster); every seat of the record needs one.  ``welcome``:
    queue each seat still in a running game its welcome, with its password.  ServiceError,
    nothing stored, when the record does not replay or a seat has no address."""
    game_id = games.valid_new_game_id(game_id)
    check_record(record)
    names = seat_names(record)
    given = seat_addresses(names, addresses)
    rules, steps = replay(record)
    secrets = {name: passwords.generate() for name in names}
    seats = [(name, *given[name], passwords.hash_password(secrets[name])) for name in names]
    finished = record["game"]["status"] == Status.FINISHED.value or rules.is_over(steps[-1].state)
    welcomed = welcome and not finished
    restart = None if finished else clock_restart(ctx, rules, steps)
    store_game(ctx, NewGame(record, game_id, rules, steps + ([restart] if restart else []), seats, finished,
                            secrets if welcomed else None, who))
    return Imported(game_id, secrets, len(steps), finished, welcomed)


def clock_restart(ctx: Context, rules: Any, steps: list[Step]) -> Step | None:
    """A running game's clock (RULINGS G10) after the import: the mover's bank running from now,
    as after a rollback, stored as a GM clock state (the time the game spent between servers is
    not charged); None for a game without a clock."""
    last, now = steps[-1], ctx.clock()
    if rules.clock_of(last.state) is None:
        return None
    move = {"seq": len(steps), "turn": rules.turn(last.state), "at": now, "action": "set", "player": None,
            "origin": "gm", "text": "the clock runs from the import", "set": {"kind": "clock", "from": len(steps) - 1}}
    return Step(move, games.rolled_back_state(rules, last.state, now), now)


def seat_addresses(names: list[str], addresses: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """Each seat's (address, display name), found without case; ServiceError for a seat without
    one (a record holds no address) or an address for a name that holds no seat."""
    given = {name.lower(): value for name, value in addresses.items()}
    missing = [name for name in names if name.lower() not in given]
    if missing:
        raise ServiceError(f"every seat needs an address: give --player NAME=ADDRESS for {', '.join(missing)} "
                           "(a record names no address); nothing imported")
    unknown = sorted(set(given) - {name.lower() for name in names})
    if unknown:
        raise ServiceError(f"the record has no seat called {', '.join(unknown)} (its seats: {', '.join(names)}); "
                           "nothing imported")
    return {name: given[name.lower()] for name in names}


@retried
def store_game(ctx: Context, new: NewGame) -> None:
    """Write the replayed game in one transaction, as play would have written it."""
    store, game, gid = ctx.store, new.record["game"], new.game_id
    with store.write(games=[gid]):
        if store.games.game(gid):
            raise ServiceError(f"there is already a game {gid}; nothing imported")
        store.games.add_game(gid, new.rules.kind, game["seed"], json.dumps(game["options"]), game["created"])
        for seat, (name, address, shown, hashed) in enumerate(new.seats):
            store.seats.add_player(gid, seat, name, address, hashed, display_name=shown)
        for step in new.steps:
            store_step(ctx, gid, new.rules, step, new.names)
        for name in new.rules.removed(new.steps[-1].state):  # RULINGS G5: they left, as in the original
            store.seats.deactivate_player(gid, name)
        finish(ctx, new)
        if new.welcome is not None:
            view = games.load(store, gid)
            for player in view.seated:
                mailcommands.send_welcome(ctx, view, player, new.welcome[player.name])


def store_step(ctx: Context, game_id: str, rules: Any, step: Step, names: list[str]) -> None:
    """One state, what made it (an orders row, or a GM override for a "set"), and each seat's
    report of it when one went out for it."""
    move, at = step.move, step.at
    seq = ctx.store.turns.add_state(game_id, rules.turn(step.state), rules.dump(step.state), at)
    if move is not None and move["action"] == "set":  # a rollback or an edit, as the original recorded it
        made = move.get("set") or {}
        action = made.get("kind") if made.get("kind") in OVERRIDES else "edit"
        ctx.store.turns.add_override(game_id, seq, action, made.get("from"), move["text"])
    elif move is not None:
        named = move["action"] in ("order", "takeback")  # the move, in the rules' notation
        ctx.store.turns.add_order(game_id, move["action"], move.get("player"), move["turn"], move["text"],
                                  accepted=True, origin=move["origin"], at=at, seq=seq,
                                  canonical=move["text"] if named else None)
    if reported(rules, move):
        archive_reports(ctx, game_id, rules, step, seq, names)


def reported(rules: Any, move: dict[str, Any] | None) -> bool:
    """Whether play mails a report of the state ``move`` made: every state but one a sealed order
    of a simultaneous game made (its report goes out when the turn closes)."""
    return move is None or not (rules.simultaneous and move["action"] == "order")


def archive_reports(ctx: Context, game_id: str, rules: Any, step: Step, seq: int, names: list[str]) -> None:
    """Each seat still in the game's report of ``step``, archived as play archives what it mails
    (with the version that rendered it and the digest of what it shows, RULINGS G1), not mailed."""
    shown = digest.dumps(digest.report_digest(rules, step.state))
    removed = set(rules.removed(step.state))
    readers: list[str | None] = [name for name in names if name not in removed]
    texts = present.render_reports(game_id, rules, step.state, readers, step.events)
    for name in readers:
        ctx.store.reports.archive_report(game_id, rules.turn(step.state), seq, name, "report", texts[name], None,
                                         step.at, gm_version=gm_version(), digest=shown)


def finish(ctx: Context, new: NewGame) -> None:
    """The game's status (finished as the record's was, else active), the result the record
    gives, the history line, and the turn now open, its deadline counted from now."""
    game, result, rules, last, now = new.record["game"], new.record["result"], new.rules, new.steps[-1], ctx.clock()
    ctx.store.games.set_game_status(new.game_id, Status.FINISHED.value if new.finished else Status.ACTIVE.value, now)
    if new.finished and result.get("reason"):  # how the GM (or a forfeit, or a draw) ended it
        ctx.store.results.set_result(new.game_id, result["reason"], result.get("winners") or None, last.at)
    ctx.store.history.log(new.game_id, rules.turn(last.state), new.who, "import",
                          f"{rules.kind} for {', '.join(new.names)}, seed {game['seed']}: "
                          f"{len(new.steps) - 1} moves replayed from the record of game {game['id']} "
                          f"(gm {game.get('gm_version') or '?'}); unrated", now)
    deadlines.open_turn(ctx.store, games.load(ctx.store, new.game_id), opened=now)


def import_file(ctx: Context, text: str | bytes, game_id: str, addresses: dict[str, tuple[str, str]],
                welcome: bool = False, who: str = "gm") -> Imported:
    """import_record of the record in ``text`` (its JSON form: read_record)."""
    return import_record(ctx, read_record(text), game_id, addresses, welcome, who)
