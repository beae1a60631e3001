"""FORGET ME by mail (confirmed by a code) and gm forget: the address leaves every cell of the
store, every byte of the SQLite file and every file of the data folder but delivered mail;
every game still verifies; a running seat refuses; a forged From mails the address alone;
the caps and locks, kept by the mailbox's keyed hash, survive the forgetting."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.core.model import ServiceError
from gm.runtime.delivery import flush
from gm.runtime.maildir import MaildirTransport
from gm.runtime.transport import PermanentFailure
from gm.service.people import forget
from gm.service.play import lifecycle
from gm.service.records import audit
from gm.store import mailboxhash
from support import PLAYERS, body, last_outbox_id, mark_all_sent, order_mail, outbox

ON_BOTH_BACKENDS = True
ADA = "ada@example.org"


def send(engine, sender, text, **kwargs):
    start = last_outbox_id(engine)
    engine.ingest(order_mail(sender, text, **kwargs))
    return outbox(engine, start)


def deliver(engine, tmp_path: Path) -> int:
    return flush(engine.store, MaildirTransport(tmp_path / "delivered"), now=engine.clock())


def cells_naming(engine, address: str) -> list[str]:
    """Every table.column whose cell holds ``address`` (any case), packed cells unpacked."""
    from gm.store import packing
    from gm.store.tables import metadata

    found = []
    for name, table in metadata.tables.items():
        for row in engine.store.all(f"SELECT * FROM {name}"):
            for column in table.columns:
                value = row[column.name]
                if value is None or isinstance(value, (int, float)):
                    continue
                data = bytes(value) if not isinstance(value, str) else value.encode()
                if data.startswith(packing.MAIL_MARK):
                    data = packing.unpack_mail(data)
                elif column.name in ("state", "body") and row[f"{column.name}_packing"] == "zlib":
                    data = packing.unpack_text(data, "zlib").encode()
                if address.encode() in data.lower():
                    found.append(f"{name}.{column.name}")
    return found


def rows_naming(engine, address: str) -> list[str]:
    """On PostgreSQL, the tables with a row whose text (row::text) holds ``address``; [] on SQLite."""
    if engine.store.kind != "postgresql":
        return []
    return [name for name in engine.store.table_names()
            if engine.store.one(f"SELECT count(*) AS n FROM {name} t WHERE t::text ILIKE :p", p=f"%{address}%")["n"]]


def files_naming(root: Path, address: str, skip: tuple[Path, ...] = ()) -> list[str]:
    return [str(p) for p in root.rglob("*") if p.is_file() and not any(s in p.parents for s in skip)
            and address.encode() in p.read_bytes().lower()]


@pytest.fixture
def finished(engine):
    """nb1 finished with ada in it, nb2 running with bob only; ada observes nb2."""
    engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    engine.create_game("neighbors", "nb2", [("bob", "bob@example.org"), ("cy", "cy@example.org")], seed=6)
    lifecycle.end(engine, "nb1", "the players agreed")
    with engine.store.write():
        engine.store.selfservice.add_observer("nb2", ADA, True, engine.clock())
    mark_all_sent(engine)
    return engine


def test_forget_me_by_mail_leaves_no_trace(finished, tmp_path):
    engine = finished
    (code_mail,) = send(engine, ADA, "FORGET ME")
    assert code_mail["To"] == ADA and code_mail["Subject"].startswith("CONFIRM ")
    code = code_mail["Subject"].split(":")[0].split()[1]
    (answer,) = send(engine, ADA, f"CONFIRM {code}")
    assert answer["To"] == ADA
    pseudonym = mailboxhash.pseudonym(engine.store, ADA)
    assert pseudonym in body(answer) and "Backups" in body(answer)
    deliver(engine, tmp_path)
    assert cells_naming(engine, ADA) == []
    assert rows_naming(engine, ADA) == []
    assert [(p["name"], p["email"]) for p in engine.store.seats.players("nb1")] == \
        [("ada", pseudonym), ("bob", "bob@example.org")]
    assert engine.store.selfservice.observers_of("nb2") == []
    for game in ("nb1", "nb2"):
        assert audit.verify(engine, game).differences == []
    if engine.store.kind == "sqlite":
        database = Path(engine.config.database)
        files = [database, database.with_name(database.name + "-wal"), database.with_name(database.name + "-shm")]
        assert [f.name for f in files if f.exists() and ADA.encode() in f.read_bytes().lower()] == []
        engine.store.close()
        data = engine.config.data_dir
        assert files_naming(data, ADA) == []
        assert files_naming(tmp_path, ADA, skip=(tmp_path / "delivered",)) == []


def test_gm_forget_logs_why_and_answers(finished, tmp_path):
    engine = finished
    log = engine.config.data_dir / "gm.log"  # gm ingest's, where the config names no log file
    log.write_text("mail from ada@example.org: JOIN nb1 ada\n")
    said = forget.gm_forget(engine, ADA, "asked by phone from Ada@Example.org")
    pseudonym = mailboxhash.pseudonym(engine.store, ADA)
    assert pseudonym in said
    (row,) = engine.store.all("SELECT * FROM history WHERE action = 'forget'")
    assert "asked by phone" in row["detail"] and ADA not in row["detail"]
    assert log.read_text() == f"mail from {pseudonym}: JOIN nb1 ada\n"
    assert deliver(engine, tmp_path) == 1
    assert cells_naming(engine, ADA) == []
    with pytest.raises(ServiceError, match="-m"):
        forget.gm_forget(engine, "bob@example.org", "")


def test_a_running_seat_refuses_and_names_the_game(finished):
    engine = finished
    (answer,) = send(engine, "bob@example.org", "FORGET ME")
    assert "nb2" in body(answer) and "resign" in body(answer).lower()
    with pytest.raises(ServiceError, match="nb2"):
        forget.gm_forget(engine, "bob@example.org", "asked")
    assert engine.store.seats.players("nb2")[0]["email"] == "bob@example.org"


def test_a_forged_forget_me_mails_the_address_alone_once(finished):
    engine = finished
    mails = send(engine, ADA, "FORGET ME", Reply_To="eve@example.net")
    assert [m["To"] for m in mails] == [ADA]
    assert send(engine, ADA, "FORGET ME") == []  # the code sent there today is unanswered: nothing more
    assert [(p["name"], p["email"]) for p in engine.store.seats.players("nb1")][0] == ("ada", ADA)


def test_the_lock_of_wrong_passwords_survives_forgetting(finished):
    engine = finished
    now = engine.clock()
    with engine.store.write():
        engine.store.credentials.add_credential_lock("", "", ADA, now, now + 3600)
    forget.gm_forget(engine, ADA, "asked")
    assert engine.store.credentials.sender_lock_until("Ada@Example.org") == now + 3600
    assert engine.store.credentials.sender_lock_until("bob@example.org") is None


def test_log_lines_naming_the_address_are_rewritten(tmp_path):
    log = tmp_path / "gm.log"
    log.write_text("mail from Ada@Example.org: FORGET ME\nmail from bob@example.org\n")
    (tmp_path / "gm.log.1").write_text("outbox #3 to ada@example.org refused\n")
    assert forget.rewrite_logs([log], ADA, "forgotten-0@invalid") == 2
    assert log.read_text() == "mail from forgotten-0@invalid: FORGET ME\nmail from bob@example.org\n"
    assert (tmp_path / "gm.log.1").read_text() == "outbox #3 to forgotten-0@invalid refused\n"


def test_the_answer_is_known_by_its_header_alone():
    assert forget.is_answer(b"From: gm@x\r\nX-GM-Forgotten: yes\r\n\r\nbody")
    assert not forget.is_answer(b"From: gm@x\n\nX-GM-Forgotten: yes\n")  # in a body: not the header


def test_forget_me_with_other_requests_does_the_forgetting_alone(finished, tmp_path):
    engine = finished
    engine.create_game("neighbors", "nb3", [("bob", "bob@example.org"), ("cy", "cy@example.org")], seed=7)
    mark_all_sent(engine)
    (code_mail,) = send(engine, ADA, "OBSERVE nb3\nFORGET ME")
    assert "OBSERVE nb3" in body(code_mail) and "FORGET ME" in body(code_mail)
    code = code_mail["Subject"].split(":")[0].split()[1]
    (answer,) = send(engine, ADA, f"CONFIRM {code}")
    assert "Not done, as this address is forgotten: OBSERVE nb3" in " ".join(body(answer).split())
    assert engine.store.selfservice.observers_of("nb3") == []
    deliver(engine, tmp_path)
    assert cells_naming(engine, ADA) == []


class RefusingTransport:
    """A mail server that refuses every recipient for good."""

    def send(self, recipient, raw, outbox_id):
        raise PermanentFailure(f"550 5.1.1 <{recipient}>: no such user")

    def close(self):
        pass


def test_an_answer_refused_for_good_forgets_its_address_too(finished):
    engine = finished
    forget.gm_forget(engine, ADA, "asked by phone")
    assert "outbox.recipient" in cells_naming(engine, ADA)  # the answer waits to go
    assert flush(engine.store, RefusingTransport(), now=engine.clock()) == 0
    assert engine.store.one("SELECT count(*) AS n FROM outbox WHERE status = 'bounced'")["n"] == 1
    assert cells_naming(engine, ADA) == []
    assert rows_naming(engine, ADA) == []
