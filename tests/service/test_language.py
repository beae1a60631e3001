"""SET LANGUAGE and SET FORMAT ACCESSIBLE by mail, through the daemon: stored per seat (or, with
ALL, for the address and every seat of it), the reply already in the new language, the reports
after it in each reader's own language and format, each mail with its Content-Language; a
stranger's HILFE is answered in German; gm new --language; gm verify stays green.

Players act by mail through the daemon (tests/mailroom.py): mail into the inbox Maildir, one pass,
and what it wrote to the outbox Maildir."""

from __future__ import annotations

from email.message import EmailMessage

from gm.service.records import audit
from mailroom import Mailroom, text_of
from support import PLAYERS, order_mail

ADA, BOB = "ada@example.org", "bob@example.org"


def room_with_games(tmp_path, *game_ids: str, language: str | None = None):
    """A mailroom with a Neighbors game for ada and bob per id; {game id: {name: password}}; the
    welcomes already sent (and returned, with the room)."""
    room = Mailroom(tmp_path)
    secrets = {gid: room.engine.create_game("neighbors", gid, PLAYERS, seed=5, language=language)
               for gid in game_ids}
    return room, secrets, room.run()


def exchange(room: Mailroom, *raws: bytes) -> list[tuple[str, EmailMessage]]:
    for raw in raws:
        room.deliver(raw)
    return room.run()


def words(msg: EmailMessage) -> str:
    """The mail's text with its lines joined (a sentence wrapped across lines reads whole)."""
    return " ".join(text_of(msg).split())


def seat(room: Mailroom, game_id: str, name: str = "ada"):
    return room.engine.store.seats.player(game_id, name)


def move(room: Mailroom, secrets: dict, game_id: str = "nb1") -> list[tuple[str, EmailMessage]]:
    """The player to move plays their first legal order by mail; what the daemon sent."""
    view = room.engine.load(game_id)
    (mover,) = view.rules.to_move(view.state)
    order = view.rules.legal_orders(view.state, mover)[0]
    return exchange(room, order_mail(f"{mover}@example.org", order, game_id=game_id,
                                     password=secrets[game_id][mover]))


def test_set_language_in_one_game_replies_in_german_and_the_next_report_is_german(tmp_path):
    room, secrets, _ = room_with_games(tmp_path, "nb1", "nb2")
    (reply,) = [m for to, m in exchange(room, order_mail(ADA, "SET LANGUAGE DE", game_id="nb1",
                                                         password=secrets["nb1"]["ada"])) if to == ADA]
    assert reply["Content-Language"] == "de"
    assert "Sprache gesetzt" in reply["Subject"]
    assert "Deine Mails in diesem Spiel sind ab jetzt auf Deutsch." in words(reply)
    assert (seat(room, "nb1").language, seat(room, "nb2").language) == ("de", None)
    assert room.engine.store.seats.address_settings(ADA) is None
    mails = move(room, secrets)
    reports = {to: m for to, m in mails if "[gm nb1]" in m["Subject"]}
    assert reports[ADA]["Content-Language"] == "de" and reports[BOB]["Content-Language"] == "en"
    assert "Bericht" in reports[ADA]["Subject"] and "report" in reports[BOB]["Subject"]
    assert text_of(reports[ADA]) != text_of(reports[BOB])
    assert all(audit.verify(room.engine, gid).ok for gid in ("nb1", "nb2"))  # re-rendered in German


def test_set_language_all_reaches_every_game_and_the_games_joined_later(tmp_path):
    room, secrets, _ = room_with_games(tmp_path, "nb1", "nb2")
    (reply,) = [m for to, m in exchange(room, order_mail(ADA, "SET LANGUAGE Français ALL", game_id="nb1",
                                                         password=secrets["nb1"]["ada"])) if to == ADA]
    assert reply["Content-Language"] == "fr" and "Langue définie" in reply["Subject"]
    assert "dans chaque partie de ada@example.org (nb1, nb2)" in words(reply)
    assert (seat(room, "nb1").language, seat(room, "nb2").language) == ("fr", "fr")
    assert room.engine.store.seats.address_settings(ADA).language == "fr"
    room.engine.create_game("neighbors", "nb3", PLAYERS, seed=5)
    welcomes = {to: m for to, m in room.run()}
    assert seat(room, "nb3").language == "fr" and seat(room, "nb3", "bob").language is None
    assert welcomes[ADA]["Content-Language"] == "fr" and "Bienvenue" in welcomes[ADA]["Subject"]
    assert welcomes[BOB]["Content-Language"] == "en" and "Welcome" in welcomes[BOB]["Subject"]


def test_a_bad_language_gets_one_reply_and_changes_nothing(tmp_path):
    room, secrets, _ = room_with_games(tmp_path, "nb1")
    mails = exchange(room, order_mail(ADA, "SET LANGUAGE Klingon", game_id="nb1", password=secrets["nb1"]["ada"]))
    (reply,) = [m for to, m in mails if to == ADA]
    assert len(mails) == 1 and "Language not set" in reply["Subject"]
    assert "SET LANGUAGE Klingon: write SET LANGUAGE EN" in words(reply) and reply["Content-Language"] == "en"
    assert seat(room, "nb1").language is None


def test_my_games_shows_the_language_and_the_accessible_format(tmp_path):
    room, secrets, _ = room_with_games(tmp_path, "nb1")
    exchange(room, order_mail(ADA, "SET FORMAT ACCESSIBLE", game_id="nb1", password=secrets["nb1"]["ada"]),
             order_mail(ADA, "SET LANGUAGE EN ALL", game_id="nb1", password=secrets["nb1"]["ada"]))
    assert seat(room, "nb1").format == "accessible"
    (reply,) = [m for to, m in exchange(room, order_mail(ADA, "MY GAMES")) if to == ADA]
    text = words(reply)
    assert "the board in words, for a screen reader, times in UTC, mail in English" in text
    assert text.count("mail in English") == 2  # the seat's, and what ALL set for the address


def test_the_accessible_report_describes_the_board_and_has_a_page(tmp_path):
    room, secrets, _ = room_with_games(tmp_path, "nb1")
    (reply,) = [m for to, m in exchange(room, order_mail(ADA, "SET FORMAT ACCESSIBLE", game_id="nb1",
                                                         password=secrets["nb1"]["ada"])) if to == ADA]
    assert "describe the board in words" in words(reply)
    view = room.engine.load("nb1")
    board = view.rules.render_board(view.state, "ada").strip("\n").splitlines()
    reports = {to: m for to, m in move(room, secrets) if "[gm nb1]" in m["Subject"]}
    assert reports[ADA].get_body(("html",)) is not None  # the page, with the board as a table
    assert board[0] not in text_of(reports[ADA]) and board[0] in text_of(reports[BOB])
    assert audit.verify(room.engine, "nb1").ok


def test_a_strangers_hilfe_is_answered_in_german(tmp_path):
    room, _, _ = room_with_games(tmp_path, "nb1")
    (reply,) = [m for to, m in exchange(room, order_mail("zoe@example.net", "HILFE")) if to == "zoe@example.net"]
    assert reply["Content-Language"] == "de"
    (english,) = [m for to, m in exchange(room, order_mail("yan@example.net", "HELP")) if to == "yan@example.net"]
    assert english["Content-Language"] == "en" and text_of(english) != text_of(reply)


def test_gm_new_language_gives_every_seat_the_language(tmp_path):
    room, _, welcomes = room_with_games(tmp_path, "nb1", language="de")
    assert (seat(room, "nb1").language, seat(room, "nb1", "bob").language) == ("de", "de")
    assert {to: m["Content-Language"] for to, m in welcomes} == {ADA: "de", BOB: "de"}
    assert all("Willkommen" in m["Subject"] for _, m in welcomes)


def test_gm_new_takes_a_language_by_code_or_name_and_refuses_another(tmp_path):
    from typer.testing import CliRunner

    from gm.cli import app
    from gm.store import Store

    conf = tmp_path / "gm.yaml"
    conf.write_text(f"data_dir: {tmp_path / 'data'}\naddress: gm@localhost\n")

    def gm(*args: str):
        return CliRunner().invoke(app, ["--config", str(conf), "new", "neighbors", "--player", "ada=ada@example.org",
                                        "--player", "bob=bob@example.org", *args])

    assert gm("--id", "nb1", "--language", "Deutsch").exit_code == 0
    refused = gm("--id", "nb2", "--language", "klingon")
    assert refused.exit_code != 0 and "en, de or fr" in refused.output
    store = Store(tmp_path / "data" / "gm.sqlite")
    try:
        assert {(r.name, r.language) for r in store.seats.players("nb1")} == {("ada", "de"), ("bob", "de")}
        assert store.games.game("nb2") is None
    finally:
        store.close()
