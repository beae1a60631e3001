"""A property of the credential model, over random sequences of mail from three people:

* the owner, ada, who reads only ada@'s mailbox;
* an attacker, eve, who starts with ada's password and reply token, and reads eve@ and eve2@;
* a stranger, who forges From: ada@ but reads nothing.

Whatever they send, in any order and with time passing between: (1) the owner never ends up
without a working credential: with the codes in her mailbox (a revert code if the seat was moved
away) and a PASSWORD RESET from her address, she gets the seat back with a password and a reply
address that work; (2) the attacker never holds a working credential that the owner was not told
of: every password or token the attacker learned after the start, while it works, came with a
notice to ada@ (or the seat was moved away from ada@ and she was told so).
"""

from __future__ import annotations

import email
import email.policy
import re
import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.core import passwords
from gm.core.config import Config
from gm.service.engine import Engine
from gm.store import Store
from gm.store.packing import unpack_mail
from support import EXAMPLE_LAYOUT, Clock, order_mail

ADA, BOB, EVE, EVE2 = "ada@example.org", "bob@example.org", "eve@evil.example", "eve2@evil.example"
HOUR = 3600.0
ACTIONS = ["owner_reset", "owner_confirm", "owner_board", "owner_set_password",
           "eve_set_address", "eve_set_address_by_token", "eve_confirm", "eve_set_password",
           "eve_reset", "eve_resign_by_token", "eve_guess",
           "stranger_reset", "stranger_guess", "stranger_confirm",
           "wait_minutes", "wait_hour", "wait_day"]


class World:
    """One game, the three people's mailboxes and what each knows."""

    def __init__(self, tmp_path):
        self.clock = Clock()
        config = Config(data_dir=tmp_path / "gm-data", address="gm@localhost", gm_address="referee@example.org")
        self.store = Store(config.database)
        self.engine = Engine(self.store, config, clock=self.clock)
        secrets = self.engine.create_game("neighbors", "nb1", [("ada", ADA), ("bob", BOB)], seed=5,
                                          options={"layout": EXAMPLE_LAYOUT})
        self.step = 0
        self.seen = 0
        self.mailbox: dict[str, list[tuple[int, str, str, str]]] = {}  # to -> (step, subject, body, reply-to)
        self.read_mail()
        self.owner_password = secrets["ada"]
        self.owner_token = self.last_token(ADA)
        # What eve holds: (kind, value, the step she got it); -1: at the start (stolen).
        self.eve: list[tuple[str, str, int]] = [("password", secrets["ada"], -1),
                                                ("token", self.owner_token, -1)]
        self.moved_away_at: int | None = None
        self.n = 0

    def close(self):
        self.engine.close() if hasattr(self.engine, "close") else None
        self.store.close()

    # --- mail ---------------------------------------------------------------------------------
    def send(self, sender, text, **kwargs):
        self.engine.ingest(order_mail(sender, text, **kwargs))
        return self.read_mail()

    def read_mail(self):
        rows = self.store.all("SELECT id, raw FROM outbox WHERE id > :since ORDER BY id", since=self.seen)
        new = []
        for row in rows:
            self.seen = row["id"]
            msg = email.message_from_bytes(unpack_mail(row["raw"]), policy=email.policy.default)
            entry = (self.step, msg["Subject"], msg.get_body(("plain",)).get_content(), msg["Reply-To"] or "")
            self.mailbox.setdefault(msg["To"], []).append(entry)
            new.append((msg["To"], entry))
        return new

    def last_token(self, address):
        tokens = [m[3] for m in self.mailbox.get(address, []) if m[3]]
        return tokens[-1] if tokens else None

    def latest_code(self, addresses, word=""):
        found = [(m[0], re.search(r"CONFIRM (\w+)", m[1]).group(1)) for a in addresses
                 for m in self.mailbox.get(a, []) if m[1].startswith("CONFIRM ") and word in m[1]]
        return max(found)[1] if found else None

    def passwords_mailed(self, address, since):
        out = []
        for step, _, text, _ in self.mailbox.get(address, []):
            if step >= since:
                out += re.findall(r"\(seat ada\): (\w+)|Your new password: (\w+)", text)
        return [a or b for a, b in out]

    def fresh(self):
        self.n += 1
        return f"chosen-word-{self.n:03d}-{uuid.uuid4().hex[:4]}"

    def seat(self):
        return self.store.seats.player("nb1", "ada")

    # --- the property ------------------------------------------------------------------------------
    def works(self, kind, value):
        seat = self.seat()
        if kind == "password":
            return passwords.verify(value, seat["pw_hash"])
        parsed = self.engine.outbox.tokens.addressed(value)
        return parsed is not None and self.engine.outbox.tokens.seat(*parsed) is not None

    def told_since(self, step):
        return any(m[0] >= step for m in self.mailbox.get(ADA, []))

    def check_attacker(self):
        for kind, value, got_at in self.eve:
            if got_at < 0 or not self.works(kind, value):
                continue
            away = self.seat()["email"] != ADA and self.moved_away_at is not None \
                and self.told_since(self.moved_away_at)
            assert self.told_since(got_at) or away, (kind, value, got_at, self.mailbox.get(ADA))

    def learn(self, new):
        """eve reads eve@ and eve2@: passwords and reply addresses mailed there."""
        for to, (step, _, text, reply_to) in new:
            if to in (EVE, EVE2):
                for found in re.findall(r"\(seat ada\): (\w+)|Your new password: (\w+)", text):
                    self.eve.append(("password", found[0] or found[1], step))
                if reply_to and ".ada." in reply_to:
                    self.eve.append(("token", reply_to, step))
            if to == ADA:
                for found in re.findall(r"\(seat ada\): (\w+)|Your new password: (\w+)", text):
                    self.owner_password = found[0] or found[1]
                if reply_to:
                    self.owner_token = reply_to

    # --- the actions --------------------------------------------------------------------------
    def act(self, action):
        self.step += 1
        before = self.seat()["email"]
        eve_password = [v for k, v, _ in self.eve if k == "password"][-1]
        eve_token = [v for k, v, _ in self.eve if k == "token"][-1]
        new = []
        if action == "owner_reset":
            new = self.send(ADA, "PASSWORD RESET nb1")
        elif action == "owner_confirm":
            code = self.latest_code([ADA])
            new = self.send(ADA, f"CONFIRM {code}") if code else []
        elif action == "owner_board":
            new = self.send(ADA, "BOARD", game_id="nb1", password=self.owner_password)
        elif action == "owner_set_password":
            value = self.fresh()
            new = self.send(ADA, f"SET PASSWORD {value}", game_id="nb1", password=self.owner_password)
            if any("Password changed" in m[1][1] for m in new):
                self.owner_password = value
        elif action == "eve_set_address":
            new = self.send(EVE, f"SET ADDRESS {EVE2}", game_id="nb1", password=eve_password)
        elif action == "eve_set_address_by_token":
            new = self.send(EVE, f"SET ADDRESS {EVE2}", to=eve_token)
        elif action == "eve_confirm":
            code = self.latest_code([EVE2, EVE])
            new = self.send(EVE2, f"CONFIRM {code}") if code else []
        elif action == "eve_set_password":
            value = self.fresh()
            new = self.send(EVE, f"SET PASSWORD {value}", game_id="nb1", password=eve_password)
            if any("Password changed" in m[1][1] for m in new):
                self.eve.append(("password", value, self.step))
        elif action == "eve_reset":
            new = self.send(EVE2, "PASSWORD RESET nb1 ada")
        elif action == "eve_resign_by_token":
            new = self.send(EVE, "RESIGN", to=eve_token)
        elif action == "eve_guess":
            for n in range(3):
                new += self.send(EVE, "BOARD", game_id="nb1", password=f"guess-{self.step}-{n}")
        elif action == "stranger_reset":
            new = self.send(ADA, "PASSWORD RESET nb1")
        elif action == "stranger_guess":
            for n in range(3):
                new += self.send(ADA, "BOARD", game_id="nb1", password=f"forged-{self.step}-{n}")
        elif action == "stranger_confirm":
            new = self.send(ADA, f"CONFIRM {passwords.generate(10)}")
        else:
            self.clock.advance({"wait_minutes": 600, "wait_hour": HOUR + 60, "wait_day": 86400}[action])
        self.learn(new)
        after = self.seat()["email"]
        if before == ADA and after != ADA:
            self.moved_away_at = self.step
        assert self.seat()["active"]  # RESIGN never works without the password
        self.check_attacker()

    def recover(self):
        """The owner takes her seat back with what her mailbox holds, and a PASSWORD RESET."""
        self.step += 1
        if self.seat()["email"] != ADA:
            code = self.latest_code([ADA], "undo")
            assert code is not None, "the seat moved away and its owner has no way back"
            self.learn(self.send(ADA, f"CONFIRM {code}"))
        assert self.seat()["email"] == ADA
        self.clock.advance(HOUR + 60)  # past the hour of one confirmation a seat, and of any lock
        self.learn(self.send(ADA, "PASSWORD RESET nb1"))
        code = self.latest_code([ADA], "password reset")
        self.learn(self.send(ADA, f"CONFIRM {code}"))
        assert self.works("password", self.owner_password)
        assert self.works("token", self.owner_token)
        for kind, value, _ in self.eve:  # and eve holds nothing any more
            assert not self.works(kind, value), (kind, value)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(actions=st.lists(st.sampled_from(ACTIONS), max_size=14))
def test_the_owner_always_recovers_and_the_attacker_holds_nothing_unseen(tmp_path_factory, actions):
    world = World(tmp_path_factory.mktemp("credentials"))
    try:
        for action in actions:
            world.act(action)
        world.recover()
    finally:
        world.close()
