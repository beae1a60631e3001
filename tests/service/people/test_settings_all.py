"""Settings per player: SET FORMAT ... ALL and SET TIMEZONE ... ALL reach every game of
the seat's address and the games it takes a seat in later; without ALL, one game.  gm resend and
the welcome are what a report to each player would be: their format, picture and time zone.

Players act by mail through the daemon (tests/mailroom.py): mail into the inbox Maildir, one pass,
and what it wrote to the outbox Maildir."""

from __future__ import annotations

from email.message import EmailMessage

from gm.core import times
from gm.service.people import lobby
from gm.service.play import lifecycle
from mailroom import Mailroom, text_of
from support import PLAYERS, order_mail

ADA, BOB, CY = "ada@example.org", "bob@example.org", "cy@example.org"


def room_with_games(tmp_path, *game_ids: str, options: dict | None = None):
    """A mailroom with a Neighbors game for ada and bob per id; {game id: {name: password}}; the
    welcomes already sent."""
    room = Mailroom(tmp_path)
    secrets = {gid: room.engine.create_game("neighbors", gid, PLAYERS, seed=5, options=dict(options or {}))
               for gid in game_ids}
    room.run()
    return room, secrets


def exchange(room: Mailroom, *raws: bytes) -> list[tuple[str, EmailMessage]]:
    for raw in raws:
        room.deliver(raw)
    return room.run()


def only_to(mails, address: str, word: str) -> EmailMessage:
    (mail,) = [m for to, m in mails if to == address and word in m["Subject"]]
    return mail


def html_and_picture(msg: EmailMessage) -> tuple[str, dict[str, bytes]]:
    """The HTML part of a multipart/alternative mail and its images by Content-ID."""
    assert msg.get_content_type() == "multipart/alternative"
    text, related = msg.get_payload()
    assert text.get_content_type() == "text/plain" and related.get_content_type() == "multipart/related"
    html, *images = related.get_payload()
    return html.get_content(), {part["Content-ID"].strip("<>"): part.get_content() for part in images}


def assert_text_only(msg: EmailMessage) -> None:
    assert msg.get_content_type() == "text/plain" and not msg.is_multipart()


def seat(room: Mailroom, game_id: str, name: str = "ada"):
    return room.engine.store.seats.player(game_id, name)


# --- gm resend -------------------------------------------------------------------------------
def test_resend_gives_each_player_their_format_picture_and_zone(tmp_path):
    room, secrets = room_with_games(tmp_path, "nb1", options={"deadline": "72h"})
    exchange(room, order_mail(ADA, "SET FORMAT TEXT", game_id="nb1", password=secrets["nb1"]["ada"]),
             order_mail(BOB, "SET TIMEZONE Asia/Tokyo", game_id="nb1", password=secrets["nb1"]["bob"]))
    lifecycle.resend(room.engine, "nb1")
    mails = room.run()
    assert sorted(to for to, _ in mails) == [ADA, BOB]
    to_ada, to_bob = only_to(mails, ADA, "again"), only_to(mails, BOB, "again")
    assert_text_only(to_ada)
    assert "Deadline:" in text_of(to_ada) and "(UTC)" not in text_of(to_ada)
    html, images = html_and_picture(to_bob)
    (cid,) = images
    assert images[cid][:8] == b"\x89PNG\r\n\x1a\n" and f"cid:{cid}" in html
    view = room.engine.load("nb1")
    due = room.engine.store.one("SELECT due FROM deadlines WHERE game_id = 'nb1'")["due"]
    tokyo = times.format_due(due, room.engine.clock(), times.zone("Asia/Tokyo")).split(",")[0]
    assert "JST (" in tokyo and tokyo in text_of(to_bob) and tokyo in html
    assert view.rules.render_board(view.state, "bob").strip("\n").splitlines()[0] in text_of(to_bob)


def test_resend_to_one_player_follows_the_games_format(tmp_path):
    room, secrets = room_with_games(tmp_path, "nb1", options={"format": "text"})
    exchange(room, order_mail(BOB, "SET FORMAT HTML", game_id="nb1", password=secrets["nb1"]["bob"]))
    lifecycle.resend(room.engine, "nb1", "bob")
    (to_bob,) = [m for _, m in room.run()]
    html_and_picture(to_bob)
    lifecycle.resend(room.engine, "nb1", "ada")
    ((address, to_ada),) = room.run()
    assert address == ADA
    assert_text_only(to_ada)


# --- the welcome -----------------------------------------------------------------------------------
def test_the_welcome_of_an_html_reader_has_the_page_and_picture_and_the_letter(tmp_path):
    room = Mailroom(tmp_path)
    secrets = room.engine.create_game("neighbors", "nb1", PLAYERS, seed=5)
    mails = room.run()
    welcome = only_to(mails, ADA, "Welcome")
    html, images = html_and_picture(welcome)
    (cid,) = images
    assert f"cid:{cid}" in html and images[cid][:4] == b"\x89PNG"
    assert f"Your password: {secrets['ada']}" in html and "The game as it starts" not in html
    text = text_of(welcome)
    assert f"Your password: {secrets['ada']}" in text and "The game as it starts:" in text
    row = room.engine.store.one("SELECT secret FROM outbox WHERE recipient = :recipient AND kind = 'welcome'",
                                recipient=ADA)
    assert row["secret"] == 1  # the page carries the password too: blanked once sent
    # In a game whose reports are text, the welcome is text alone.
    room.engine.create_game("neighbors", "nb2", PLAYERS, seed=5, options={"format": "text"})
    mails = room.run()
    assert len(mails) == 2
    for _, welcome in mails:
        assert_text_only(welcome)
        assert "The game as it starts:" in text_of(welcome)


# --- SET ... ALL ---------------------------------------------------------------------------------
def test_set_format_all_reaches_every_game_and_the_next_ones(tmp_path):
    room, secrets = room_with_games(tmp_path, "nb1", "nb2")
    mails = exchange(room, order_mail(ADA, "SET FORMAT TEXT ALL", game_id="nb2",
                                      password=secrets["nb2"]["ada"]))
    ((address, reply),) = mails
    said = " ".join(text_of(reply).split())
    assert address == ADA and "Format set" in reply["Subject"]
    assert "in every game of ada@example.org (nb1, nb2) and in the games it joins later" in said
    assert seat(room, "nb1")["format"] == seat(room, "nb2")["format"] == "text"
    assert seat(room, "nb1", "bob")["format"] is None
    # A report in the other game comes as text.
    view = room.engine.load("nb1")
    mover = view.rules.to_move(view.state)[0]
    exchange(room, order_mail(f"{mover}@example.org", view.rules.legal_orders(view.state, mover)[0],
                              game_id="nb1", password=secrets["nb1"][mover]))
    lifecycle.resend(room.engine, "nb1")
    mails = room.run()
    assert_text_only(only_to(mails, ADA, "again"))
    html_and_picture(only_to(mails, BOB, "again"))
    # gm new with ada: her seat and welcome are text from the start.
    room.engine.create_game("neighbors", "nb3", [("ada", ADA), ("cy", CY)], seed=5)
    mails = room.run()
    assert seat(room, "nb3")["format"] == "text" and seat(room, "nb3", "cy")["format"] is None
    assert_text_only(only_to(mails, ADA, "Welcome"))
    html_and_picture(only_to(mails, CY, "Welcome"))


def test_set_timezone_all_reaches_a_game_joined_later_and_a_replaced_seat(tmp_path):
    room, secrets = room_with_games(tmp_path, "nb1", "nb2")
    ((_, reply),) = exchange(room, order_mail(ADA, "SET TIMEZONE Europe/Berlin ALL", game_id="nb1",
                                              password=secrets["nb1"]["ada"]))
    assert "Time zone set" in reply["Subject"] and "Europe/Berlin" in text_of(reply)
    assert seat(room, "nb1")["timezone"] == seat(room, "nb2")["timezone"] == "Europe/Berlin"
    assert seat(room, "nb1", "bob")["timezone"] is None
    # JOIN an open game: the seat takes the zone.
    lobby.open_game(room.engine, "neighbors", "nb7", 2, min_seats=2, seed=4)
    ((_, code_mail),) = exchange(room, order_mail(ADA, "JOIN nb7 ada"))
    code = text_of(code_mail).split("CONFIRM ")[1].split()[0]
    exchange(room, order_mail(ADA, f"CONFIRM {code}"))
    assert seat(room, "nb7")["timezone"] == "Europe/Berlin"
    # gm replace: ada takes cy's seat of a game she does not play; cy's own zone goes with cy.
    nb4 = room.engine.create_game("neighbors", "nb4", [("bob", BOB), ("cy", CY)], seed=5)
    room.run()
    exchange(room, order_mail(CY, "SET TIMEZONE Asia/Tokyo", game_id="nb4", password=nb4["cy"]))
    assert seat(room, "nb4", "cy")["timezone"] == "Asia/Tokyo"
    lifecycle.replace(room.engine, "nb4", "cy", ADA)
    assert seat(room, "nb4", "cy")["timezone"] == "Europe/Berlin"
    lifecycle.replace(room.engine, "nb4", "cy", "dee@example.org")
    assert seat(room, "nb4", "cy")["timezone"] is None


def test_without_all_one_game_only(tmp_path):
    room, secrets = room_with_games(tmp_path, "nb1", "nb2")
    exchange(room, order_mail(ADA, "SET FORMAT TEXT\nSET TIMEZONE Asia/Tokyo", game_id="nb1",
                              password=secrets["nb1"]["ada"]))
    assert (seat(room, "nb1")["format"], seat(room, "nb1")["timezone"]) == ("text", "Asia/Tokyo")
    assert (seat(room, "nb2")["format"], seat(room, "nb2")["timezone"]) == (None, None)
    room.engine.create_game("neighbors", "nb3", [("ada", ADA), ("cy", CY)], seed=5)
    mails = room.run()
    assert (seat(room, "nb3")["format"], seat(room, "nb3")["timezone"]) == (None, None)
    html_and_picture(only_to(mails, ADA, "Welcome"))
    assert room.engine.store.seats.address_settings(ADA) is None


def test_a_later_game_setting_wins_over_all_in_that_game_only(tmp_path):
    room, secrets = room_with_games(tmp_path, "nb1", "nb2")
    exchange(room, order_mail(ADA, "SET FORMAT TEXT ALL", game_id="nb1", password=secrets["nb1"]["ada"]))
    exchange(room, order_mail(ADA, "SET FORMAT HTML", game_id="nb2", password=secrets["nb2"]["ada"]))
    assert (seat(room, "nb1")["format"], seat(room, "nb2")["format"]) == ("text", "html")
    assert room.engine.store.seats.address_settings(ADA)["format"] == "text"


def test_a_bad_value_with_all_changes_nothing(tmp_path):
    room, secrets = room_with_games(tmp_path, "nb1", "nb2")
    ((_, reply),) = exchange(room, order_mail(ADA, "SET FORMAT PDF ALL", game_id="nb1",
                                              password=secrets["nb1"]["ada"]))
    assert "Format not set" in reply["Subject"] and "SET FORMAT TEXT ALL" in " ".join(text_of(reply).split())
    ((_, reply),) = exchange(room, order_mail(ADA, "SET TIMEZONE Mars/Olympus ALL", game_id="nb1",
                                              password=secrets["nb1"]["ada"]))
    assert "Time zone not set" in reply["Subject"]
    assert room.engine.store.seats.address_settings(ADA) is None
    assert [seat(room, g)["format"] for g in ("nb1", "nb2")] == [None, None]


def game_block(text: str, game_id: str) -> str:
    """The lines of one game in a MY GAMES reply: from ``<id>:`` to the blank line after it."""
    return " ".join(text.split(f"\n{game_id}: ", 1)[1].split("\n\n", 1)[0].split())


def test_my_games_shows_the_settings_in_force(tmp_path):
    room, secrets = room_with_games(tmp_path, "nb1", "nb2", options={"deadline": "72h"})
    ((_, reply),) = exchange(room, order_mail(ADA, "MY GAMES"))
    text = text_of(reply)
    for game_id in ("nb1", "nb2"):
        assert "Your mail: text and HTML (the game's), times in UTC" in game_block(text, game_id)
    assert "SET FORMAT TEXT ALL or SET TIMEZONE <zone> ALL" in text
    exchange(room, order_mail(ADA, "SET TIMEZONE Europe/Berlin ALL\nSET FORMAT TEXT", game_id="nb1",
                              password=secrets["nb1"]["ada"]))
    ((_, reply),) = exchange(room, order_mail(ADA, "SUMMARY"))
    text = text_of(reply)
    assert "Your mail: plain text, times in Europe/Berlin" in game_block(text, "nb1")
    assert "Your mail: text and HTML (the game's), times in Europe/Berlin" \
        in game_block(text, "nb2")
    assert "Your settings for every game, and those you join later (SET ... ALL):\n    times in Europe/Berlin\n" \
        in text
    due = room.engine.store.one("SELECT due FROM deadlines WHERE game_id = 'nb1'")["due"]
    berlin = times.format_due(due, room.engine.clock(), times.zone("Europe/Berlin")).split(",")[0]
    assert f"Deadline: {berlin}" in game_block(text, "nb1")  # in the reader's zone


def test_help_lists_the_all_forms(tmp_path):
    room, secrets = room_with_games(tmp_path, "nb1")
    ((_, reply),) = exchange(room, order_mail(ADA, "HELP", game_id="nb1", password=secrets["nb1"]["ada"]))
    text = text_of(reply)
    assert "SET FORMAT TEXT|HTML [ALL]" in text and "SET TIMEZONE <zone> [ALL]" in text
    assert "SET FORMAT TEXT ALL" in " ".join(text.split())
