"""The game engine: mail -> command -> rules -> report -> outbox.

Every change happens in one ``BEGIN IMMEDIATE`` transaction together with
the record of the message that caused it and the mail it queues, so that a
crash at any instant leaves either all of it or none of it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import random
import secrets
import time
import traceback
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from games import registry
from games.base import Event, Game, NotYourTurnError, OrderError
from gm import passwords
from gm.mail import inbound as mailin
from gm.mail import orders as commands
from gm.config import Config
from gm.store import Store, StoreError

log = logging.getLogger(__name__)


class EngineError(Exception):
    """A GM command that cannot be done (unknown game, unknown player...)."""


@dataclass
class Loaded:
    """A game as stored now: its row, rules, current state and players."""

    row: Any
    rules: Game
    state: Any
    seq: int
    players: list[Any]

    @property
    def id(self) -> str:
        return self.row["id"]

    def player(self, name: str):
        for p in self.players:
            if p["name"].lower() == name.lower():
                return p
        return None


@dataclass
class Outcome:
    outcome: str  # applied | sealed | rejected | ignored | robot | duplicate | help | error
    detail: str = ""
    game_id: str | None = None
    replies: list[str] = field(default_factory=list)  # bodies queued to the sender


class Engine:
    def __init__(self, store: Store, config: Config, clock: Callable[[], float] = time.time):
        self.store = store
        self.config = config
        self.clock = clock
        self._cache_key = secrets.token_bytes(32)
        self._verified: set[bytes] = set()
        self._checking: dict[bytes, Future] = {}  # password checks started by prepare()
        self._checker: ThreadPoolExecutor | None = None

    # --- games ----------------------------------------------------------------
    def create_game(
        self,
        kind: str,
        game_id: str,
        players: list[tuple[str, str]],
        seed: int | None = None,
        options: dict[str, str] | None = None,
    ) -> dict[str, str]:
        """Set up a game and queue a welcome to each player.  Returns name -> password."""
        rules = registry.get(kind)
        game_id = game_id.strip().lower()
        if not game_id or not all(c.isalnum() or c in "_.-" for c in game_id):
            raise EngineError("a game id is letters, digits, '.', '_' or '-'")
        seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        options = dict(options or {})
        from gm import deadlines
        service = deadlines.split_options(options)  # deadline, press...: not the rules'
        names = [name for name, _ in players]
        now = self.clock()
        state = rules.start(rules.setup(names, options, seed), now)  # OptionError on bad options
        secrets_by_name = {name: passwords.generate() for name in names}
        with self.store.write():
            if self.store.game(game_id):
                raise EngineError(f"there is already a game {game_id}")
            self.store.insert(
                "games", id=game_id, kind=rules.kind, seed=seed, options=json.dumps(options),
                status="active", created=now, updated=now,
            )
            for seat, (name, address) in enumerate(players):
                self.store.insert(
                    "players", game_id=game_id, seat=seat, name=name, email=address.strip(),
                    pw_hash=passwords.hash_password(secrets_by_name[name]),
                )
            seq = self.store.add_state(game_id, rules.turn(state), rules.dump(state), now)
            deadlines.save_settings(self.store, game_id, service)
            self.store.log(game_id, rules.turn(state), "gm", "create",
                           f"{rules.kind} for {', '.join(names)}, seed {seed}", now)
            loaded = self.load(game_id)
            for player in loaded.players:
                self._welcome(loaded, player, secrets_by_name[player["name"]], seq)
        return secrets_by_name

    def load(self, game_id: str) -> Loaded:
        row = self.store.game(game_id.strip().lower())
        if row is None:
            raise EngineError(f"no game called {game_id!r}")
        rules = registry.get(row["kind"])
        latest = self.store.latest_state(row["id"])
        state = rules.load(json.loads(latest["state"]))
        return Loaded(row, rules, state, latest["seq"], self.store.players(row["id"]))

    # --- inbound mail -------------------------------------------------------
    def prepare(self, raw: bytes) -> mailin.Inbound:
        """Read a message ahead of ingest() and start checking its password.

        For a batch of mail: the daemon prepares every message it fetched, then
        ingests them in order.  scrypt releases the GIL, so the checks run on
        other cores while earlier orders are judged; ingest() waits for a check
        only if it has not finished.  Nothing is stored or decided here.
        """
        inbound = mailin.parse(raw, self.config.address)
        if inbound.robot:
            return inbound
        try:
            self._start_password_check(inbound)
        except Exception:  # only a head start: ingest() checks again, and reports any fault
            log.exception("preparing a message from %s", inbound.sender)
        return inbound

    def _start_password_check(self, inbound: mailin.Inbound) -> None:
        mail = commands.read(inbound.subject, inbound.text)
        if not (mail.game_id and mail.password):
            return
        row = self.store.one(
            "SELECT pw_hash FROM players WHERE game_id = ? AND lower(email) = ?",
            mail.game_id.strip().lower(), inbound.sender,
        )
        if row is not None:
            key = self._password_key(mail.password, row["pw_hash"])
            if key not in self._verified and key not in self._checking:
                if self._checker is None:
                    self._checker = ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1),
                                                       thread_name_prefix="gm-password")
                if len(self._checking) > 10_000:  # prepared but never ingested: forget them
                    self._checking.clear()
                self._checking[key] = self._checker.submit(passwords.verify, mail.password, row["pw_hash"])

    def close(self) -> None:
        """Stop the password-check threads (the store stays open: it is the caller's)."""
        if self._checker is not None:
            self._checker.shutdown(wait=True, cancel_futures=True)
            self._checker = None
        self._checking.clear()

    def ingest(self, raw: bytes, source_key: str | None = None,
               inbound: mailin.Inbound | None = None) -> Outcome:
        """Store one inbound message and act on it, all in one transaction.

        ``inbound`` is the message as prepare() read it, if it was.  Raises
        gm.store.StoreError only when the message could not be stored.
        """
        key = source_key or "sha256:" + hashlib.sha256(raw).hexdigest()
        if inbound is None:
            inbound = mailin.parse(raw, self.config.address)
        now = self.clock()
        try:
            with self.store.write():
                seen = self.store.message_seen(key, inbound.message_id)
                if seen is not None:
                    if seen["source_key"] != key:
                        self._record(inbound, key, now, "duplicate", f"same Message-ID as #{seen['id']}")
                    return Outcome("duplicate", f"already processed as #{seen['id']}")
                row_id = self._record(inbound, key, now, "pending", "")
                outcome = self._handle(inbound, row_id, now)
                self.store.update("messages", {"id": row_id}, outcome=outcome.outcome,
                                  detail=outcome.detail[:2000], game_id=outcome.game_id)
                return outcome
        except Exception as exc:
            if isinstance(exc, StoreError):
                raise
            # A bug must not lose the message: keep it, marked, for the GM.
            log.exception("processing %s failed", key)
            with self.store.write():
                if self.store.message_seen(key, None) is None:
                    self._record(inbound, key, now, "error", traceback.format_exc()[-2000:])
            return Outcome("error", str(exc))

    def _record(self, inbound: mailin.Inbound, key: str, now: float, outcome: str, detail: str) -> int:
        return self.store.insert(
            "messages", source_key=key, message_id=inbound.message_id, sender=inbound.sender,
            subject=inbound.subject, raw=inbound.raw, received=now, outcome=outcome, detail=detail,
        )

    def _handle(self, inbound: mailin.Inbound, row_id: int, now: float) -> Outcome:
        if inbound.robot:
            log.info("not answering %s: %s", inbound.sender or "?", inbound.robot)
            return Outcome("robot", inbound.robot)
        if len(inbound.raw) > self.config.max_message_bytes:
            return self._error(inbound, None, "Your mail is too large for gm to read "
                               f"(limit {self.config.max_message_bytes} bytes). Send orders as "
                               "plain text without attachments.")
        mail = commands.read(inbound.subject, inbound.text)
        if mail.game_id is None:
            if "HELP" in mail.commands or mail.empty:
                body = self.render("help", game=None, kinds=registry.available())
                self._reply(inbound, None, "Help", body, kind="reply")
                return Outcome("help", "general help")
            return self._error(inbound, None, "Your mail does not say which game it is for. "
                               "Put a line GAME <id> PASSWORD <password> above your orders.")
        try:
            loaded = self.load(mail.game_id)
        except EngineError:
            return self._error(inbound, None, f"There is no game called {mail.game_id!r} here. "
                               "Check the game id in your welcome mail.")
        player = self._authenticate(loaded, inbound.sender, mail.password)
        if player is None:
            reason = "no password was given" if not mail.password else "the password is wrong"
            return self._error(inbound, loaded, f"Nothing was done: {reason} for game "
                               f"{loaded.id}. Use the password from your welcome mail.")
        if mail.empty:
            return self._error(inbound, loaded, "Your mail had no orders and no commands. "
                               "Orders go on the lines below GAME ... PASSWORD ...; send HELP "
                               "for the format.")
        outcome = Outcome("help", "commands", loaded.id)
        for command in mail.commands:
            self._command(loaded, player, command, inbound)
        if mail.press:
            from gm import press

            for target, text in mail.press:
                press.send(self, loaded, player, target, text, inbound)
        if mail.order_lines:
            outcome = self.order(loaded, player["name"], mail.order_text, origin="mail",
                                 inbound=inbound, message_row=row_id, now=now)
        return outcome

    def _authenticate(self, loaded: Loaded, sender: str, password: str | None):
        if not password:
            return None
        # Try the sender's own seat first so the common case costs one hash.
        ordered = sorted(loaded.players, key=lambda p: p["email"].lower() != sender)
        for player in ordered:
            if self._password_ok(password, player["pw_hash"]):
                return player
        return None

    def _password_ok(self, password: str, stored: str) -> bool:
        """scrypt costs ~2 ms (more for older hashes); remember successes for this process only.

        The cache key is a keyed digest of (stored hash, password) under a
        per-process random key, so neither the password nor a reusable hash
        of it is kept; a changed password (new stored hash) misses the cache.
        """
        key = self._password_key(password, stored)
        if key in self._verified:
            return True
        started = self._checking.pop(key, None)  # by prepare()
        try:
            ok = started.result() if started is not None else None
        except Exception:  # cancelled or failed: check here instead
            ok = None
        if ok is None:
            ok = passwords.verify(password, stored)
        if ok:
            self._verified.add(key)
        return ok

    def _password_key(self, password: str, stored: str) -> bytes:
        return hmac.new(self._cache_key, f"{stored}\0{password}".encode(), "sha256").digest()

    def _command(self, loaded: Loaded, player, command: str, inbound) -> None:
        if command == "HELP":
            body = self.render("help", game=loaded.rules, game_id=loaded.id, kinds=[])
            self._reply(inbound, loaded, "Help", body, kind="reply")
        elif command == "BOARD":
            body = self.report_body(loaded, loaded.state, player["name"], [])
            self._reply(inbound, loaded, "Board", body, kind="report", archive_player=player["name"])
        elif command == "HISTORY" or command.startswith("ABSENCE"):
            from gm import press

            press.command(self, loaded, player, command, inbound)

    # --- orders -------------------------------------------------------------
    def order(self, loaded: Loaded, name: str, text: str, *, origin: str,
              inbound: mailin.Inbound | None = None, message_row: int | None = None,
              now: float | None = None) -> Outcome:
        """Apply one player's orders (mail or GM override).  Must run inside store.write()."""
        now = self.clock() if now is None else now
        rules, state = loaded.rules, loaded.state
        player = loaded.player(name)
        if player is None:
            raise EngineError(f"no player {name!r} in game {loaded.id}")
        name = player["name"]
        turn = rules.turn(state)
        try:
            if loaded.row["status"] == "finished":
                raise NotYourTurnError("the game is over")
            if loaded.row["status"] == "paused":
                raise NotYourTurnError("the game is paused by the game master")
            if name not in rules.to_move(state):
                waiting = ", ".join(rules.to_move(state)) or "nobody"
                raise NotYourTurnError(f"it is not your turn (waiting for {waiting})")
            order = rules.parse_order(state, name, text)
            result = rules.submit(state, name, order, now)
        except OrderError as exc:
            self.store.insert("orders", game_id=loaded.id, action="order", player=name, turn=turn,
                              text=text, accepted=0, error=str(exc), message_row=message_row,
                              origin=origin, at=now)
            body = self.render("rejected", game_id=loaded.id, text=text, error=str(exc),
                               kind=type(exc).__name__, legal=getattr(exc, "legal", None),
                               hint=self.hint(loaded.id))
            if inbound is not None:
                self._reply(inbound, loaded, "Order refused", body, kind="error")
            return Outcome("rejected", str(exc), loaded.id, [body])
        seq = self._save(loaded, result.state, now)
        self.store.insert("orders", game_id=loaded.id, action="order", player=name, turn=turn,
                          text=text, canonical=str(order), accepted=1, message_row=message_row,
                          origin=origin, at=now, seq=seq)
        self._notify_other_address(loaded, player, inbound, text)
        if rules.simultaneous:
            self._announce(loaded, result.state, seq, result.events, name, inbound)
            self.maybe_close(loaded.id, now=now)
            return Outcome("sealed", str(order), loaded.id)
        self.queue_reports(self._advanced(loaded, result.state, seq), result.events,
                           reply_to=(name, inbound))
        return Outcome("applied", str(order), loaded.id)

    def gm_order(self, game_id: str, name: str, text: str) -> Outcome:
        with self.store.write():
            loaded = self.load(game_id)
            self.store.log(loaded.id, loaded.rules.turn(loaded.state), "gm", "order",
                           f"as {name}: {text}", self.clock())
            return self.order(loaded, name, text, origin="gm")

    def maybe_close(self, game_id: str, now: float | None = None, force: bool = False,
                    origin: str = "timer") -> bool:
        """The one place that decides a simultaneous turn closes: all in, timer, or the GM."""
        now = self.clock() if now is None else now
        with self.store.write():
            loaded = self.load(game_id)
            rules, state = loaded.rules, loaded.state
            timer = rules.timer(state)
            if (not rules.simultaneous and timer is None) or rules.is_over(state) \
                    or loaded.row["status"] != "active":
                return False
            if not (force or rules.ready(state, now) or (timer is not None and now >= timer)
                    or self._only_the_removed_awaited(loaded)):
                return False
            turn = rules.turn(state)
            result = rules.close_turn(state, now)
            seq = self._save(loaded, result.state, now)
            self.store.insert("orders", game_id=loaded.id, action="close", player=None, turn=turn,
                              text="", accepted=1, origin="gm" if force and origin == "timer" else origin, at=now, seq=seq)
            self.queue_reports(self._advanced(loaded, result.state, seq), result.events)
            return True

    def _only_the_removed_awaited(self, loaded: Loaded) -> bool:
        """A simultaneous turn where every player still in the game has sent orders.

        The rules wait for every seat; a seat the GM removed (gm eject) never
        sends any, and its orders count as missing, so there is nothing left
        to wait for.  Only asked when someone has been removed.
        """
        if not loaded.rules.simultaneous or all(p["active"] for p in loaded.players):
            return False
        from gm import deadlines

        active = {p["name"] for p in loaded.players if p["active"]}
        awaited = active & set(loaded.rules.to_move(loaded.state))
        start_seq, _ = deadlines.turn_start(self.store, loaded.id)
        return bool(awaited) and awaited <= deadlines.submitted(self.store, loaded.id, start_seq)

    def process(self, game_id: str) -> bool:
        """`gm process`: adjudicate a simultaneous turn now."""
        loaded = self.load(game_id)
        if not loaded.rules.simultaneous:
            raise EngineError(f"{loaded.rules.title} is sequential: there is no turn to close")
        with self.store.write():
            self.store.log(loaded.id, loaded.rules.turn(loaded.state), "gm", "process", "", self.clock())
            return self.maybe_close(game_id, force=True)

    def tick(self) -> list[str]:
        """Close every simultaneous turn whose rules timer has run out."""
        closed = []
        from gm import deadlines
        deadlines.tick(self)  # reminders, late notices, deadlines (gm/deadlines.py)
        for row in self.store.all("SELECT id FROM games WHERE status = 'active'"):
            if self.maybe_close(row["id"]):
                closed.append(row["id"])
        return closed

    def _advanced(self, loaded: Loaded, state: Any, seq: int) -> Loaded:
        """The game after _save: its new row and state, without reading the state back."""
        return Loaded(self.store.game(loaded.id), loaded.rules, state, seq, loaded.players)

    def _save(self, loaded: Loaded, state: Any, now: float) -> int:
        rules = loaded.rules
        seq = self.store.add_state(loaded.id, rules.turn(state), rules.dump(state), now)
        status = "finished" if rules.is_over(state) else loaded.row["status"]
        self.store.update("games", {"id": loaded.id}, status=status, updated=now)
        return seq

    # --- outgoing mail ------------------------------------------------------
    def render(self, template: str, **context) -> str:
        from gm import render

        context.setdefault("address", self.config.address)
        return render.render_text(template, **context)

    def hint(self, game_id: str) -> str:
        from gm import render

        return render.help_hint(game_id)

    def report_body(self, loaded: Loaded, state: Any, viewer: str | None, events: list[Event]) -> str:
        from gm import render

        from gm import deadlines

        deadline = deadlines.deadline_text(self, loaded) if state is loaded.state else None
        return render.render_report(render.ReportInput(loaded.id, loaded.rules, state, viewer, events,
                                                       deadline=deadline))

    def queue_reports(self, loaded: Loaded, events: list[Event], reply_to=None) -> None:
        from gm import deadlines, render

        rules, state = loaded.rules, loaded.state
        turn = rules.turn(state)
        label = "final report" if rules.is_over(state) else "report"
        readers = [p for p in loaded.players if p["active"]]  # not the ejected (gm eject)
        bodies = render.render_reports(loaded.id, rules, state, [p["name"] for p in readers], events,
                                       deadline=deadlines.deadline_text(self, loaded))
        for player in readers:
            body = bodies[player["name"]]
            in_reply_to = refs = None
            if reply_to and reply_to[0] == player["name"] and reply_to[1] is not None:
                in_reply_to, refs = reply_to[1].message_id, reply_to[1].references
            outbox_id = self.queue_mail(
                player["email"], f"[{loaded.id} T{turn}] {rules.title} {label}", body,
                kind="report", game_id=loaded.id, turn=turn, in_reply_to=in_reply_to,
                references=refs or (),
            )
            self._archive(loaded, player["name"], "report", body, outbox_id)

    def _announce(self, loaded, state, seq, events, sender, inbound) -> None:
        """Simultaneous games: confirm a sealed order privately, publish what is public."""
        rules = loaded.rules
        turn = rules.turn(state)
        private = [e.text for e in events if e.to is not None and sender in e.to]
        public = [e.text for e in events if e.to is None]
        from gm import deadlines

        body = self.render("confirm", game_id=loaded.id, turn=turn, lines=private or ["Orders received."],
                           to_move=rules.to_move(state), hint=self.hint(loaded.id),
                           deadline=deadlines.deadline_text(self, loaded))
        if inbound is not None:
            self._reply(inbound, loaded, "Orders received", body, kind="reply", archive_player=sender)
        else:
            p = loaded.player(sender)
            oid = self.queue_mail(p["email"], f"[{loaded.id} T{turn}] Orders received", body,
                                  kind="reply", game_id=loaded.id, turn=turn)
            self._archive(loaded, sender, "reply", body, oid)
        if public:
            notice = self.render("notice", game_id=loaded.id, turn=turn, lines=public,
                                 hint=self.hint(loaded.id))
            for player in loaded.players:
                oid = self.queue_mail(player["email"], f"[{loaded.id} T{turn}] {rules.title} news",
                                      notice, kind="notice", game_id=loaded.id, turn=turn)
                self._archive(loaded, player["name"], "notice", notice, oid)

    def _notify_other_address(self, loaded, player, inbound, text) -> None:
        """An order from an unregistered address: tell the registered one what was done."""
        if inbound is None or inbound.sender == player["email"].lower():
            return
        body = self.render("other_address", game_id=loaded.id, sender=inbound.sender, text=text,
                           hint=self.hint(loaded.id))
        self.queue_mail(player["email"], f"[{loaded.id}] Orders from another address", body,
                        kind="notice", game_id=loaded.id, turn=loaded.rules.turn(loaded.state))

    def _archive(self, loaded: Loaded, player: str | None, kind: str, body: str, outbox_id: int | None) -> None:
        self.store.insert("reports", game_id=loaded.id, turn=loaded.rules.turn(loaded.state),
                          seq=loaded.seq, player=player, kind=kind, body=body,
                          outbox_id=outbox_id, created=self.clock())

    def _welcome(self, loaded: Loaded, player, password: str, seq: int) -> None:
        rules = loaded.rules
        report = self.report_body(loaded, loaded.state, player["name"], [])
        body = self.render("welcome", game_id=loaded.id, title=rules.title, name=player["name"],
                           password=password, players=[p["name"] for p in loaded.players],
                           address=self.config.address, report=report)
        oid = self.queue_mail(player["email"], f"[{loaded.id} T{rules.turn(loaded.state)}] "
                              f"Welcome to {rules.title}", body, kind="welcome", game_id=loaded.id,
                              turn=rules.turn(loaded.state))
        self._archive(loaded, player["name"], "report", report, oid)

    def _error(self, inbound: mailin.Inbound, loaded: Loaded | None, message: str) -> Outcome:
        body = self.render("error", message=message, game_id=loaded.id if loaded else None,
                           hint=self.hint(loaded.id) if loaded else None)
        self._reply(inbound, loaded, "Not done", body, kind="error")
        return Outcome("rejected", message, loaded.id if loaded else None, [body])

    def _reply(self, inbound: mailin.Inbound, loaded: Loaded | None, label: str, body: str,
               kind: str, archive_player: str | None = None) -> int | None:
        """Answer a mail, threaded.  Error replies are rate-limited per sender."""
        if kind == "error" and self._over_error_limit(inbound.reply_address):
            log.warning("error reply to %s suppressed: rate limit", inbound.reply_address)
            return None
        if loaded is not None:
            tag = f"[{loaded.id} T{loaded.rules.turn(loaded.state)}]"
        else:
            tag = "[gm]"
        original = inbound.subject or "your mail"
        subject = f"{tag} {label}: {original}" if label else f"{tag} {original}"
        oid = self.queue_mail(inbound.reply_address, subject[:200], body, kind=kind,
                              game_id=loaded.id if loaded else None,
                              turn=loaded.rules.turn(loaded.state) if loaded else None,
                              in_reply_to=inbound.message_id, references=inbound.references,
                              auto="auto-replied")
        if loaded is not None:
            self._archive(loaded, archive_player, kind if kind != "error" else "reply", body, oid)
        return oid

    def _over_error_limit(self, address: str) -> bool:
        since = self.clock() - 3600
        row = self.store.one(
            "SELECT COUNT(*) AS n FROM outbox WHERE kind = 'error' AND recipient = ? AND created >= ?",
            address, since,
        )
        return row["n"] >= self.config.error_replies_per_hour

    def queue_mail(self, to: str, subject: str, body: str, *, kind: str, game_id: str | None = None,
                   turn: int | None = None, in_reply_to: str | None = None,
                   references=(), auto: str = "auto-generated") -> int:
        from gm.mail.outbound import compose

        message_id, raw = compose(
            sender=self.config.address, sender_name=self.config.name, to=to, subject=subject,
            body=body, auto=auto, in_reply_to=in_reply_to, references=list(references or ()),
            game_id=game_id, instance=self.config.address,
        )
        now = self.clock()
        return self.store.insert(
            "outbox", message_id=message_id, game_id=game_id, turn=turn, kind=kind,
            recipient=to, subject=subject, raw=raw, status="queued", next_attempt=now, created=now,
        )

