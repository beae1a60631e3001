"""Report mail as multipart/alternative: the text report first, then HTML with the picture by cid.

Every report mail is read back with the email package: its text part is exactly
the text report (the archived one, what a text-only player gets), its HTML part
shows an image part of the same mail that decodes to the PNG drawn for that
reader, and no reader's picture or page shows another's sealed order.
"""

from __future__ import annotations

import email
import email.policy
import io

import pytest
from PIL import Image

from games.fuzzy_borders.rules import MAX_SIDE as FB_MAX_SIDE
from games.phalanx.rules import MAX_SIDE as PH_MAX_SIDE
from gm.mail.outbound import MAX_HTML_MESSAGE_BYTES, HtmlPart, compose, marked
from gm.present import pictures
from gm.present.reports import OBSERVER
from gm.store.packing import unpack_mail, unpack_text
from support import PLAYERS, PLAYERS3, last_outbox_id, order_mail

SIX = [(n, f"{n}@example.org") for n in ("ada", "bob", "cy", "dee", "eve", "fay")]


def report_mails(engine, since: int = 0) -> dict[str, email.message.EmailMessage]:
    """The newest report mail to each player queued after outbox id ``since``."""
    rows = engine.store.all("SELECT * FROM outbox WHERE kind = 'report' AND id > :since ORDER BY id", since=since)
    out = {}
    for row in rows:
        msg = email.message_from_bytes(unpack_mail(row["raw"]), policy=email.policy.default)
        out[row["recipient"].split("@")[0]] = msg
        msg.raw_size = len(unpack_mail(row["raw"]))
        msg.outbox_id = row["id"]
    return out


def parts(msg):
    """(text part, html part, {content id: image bytes}) of a multipart/alternative report."""
    assert msg.get_content_type() == "multipart/alternative"
    first, second = msg.get_payload()
    assert first.get_content_type() == "text/plain"  # the text first: the canonical report
    assert second.get_content_type() == "multipart/related"
    html, *images = second.get_payload()
    assert html.get_content_type() == "text/html"
    return (first.get_content(), html.get_content(),
            {part["Content-ID"].strip("<>"): part.get_content() for part in images})


def archived_report(engine, outbox_id: int, player: str) -> str:
    row = engine.store.one("SELECT body, body_packing FROM reports WHERE outbox_id = :outbox_id "
                           "AND player = :player AND kind = 'report'", outbox_id=outbox_id, player=player)
    return unpack_text(row["body"], row["body_packing"])


def report_now(engine, game_id: str):
    """Every player's report of the game as it stands (the path of a GM edit's reports)."""
    with engine.store.write():
        view = engine.load(game_id)
        engine.queue_reports(view, [])
    return view


def picture_of(msg) -> bytes:
    _, html, images = parts(msg)
    (cid,) = images
    assert f'src="cid:{cid}"' in html
    return images[cid]


def test_a_report_mail_is_text_then_html_with_its_picture(engine, nb_game):
    since = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "Rb4xd4", game_id="nb1", password=nb_game["ada"]))
    mails = report_mails(engine, since)
    assert set(mails) == {"ada", "bob"}
    view = engine.load("nb1")
    for name, msg in mails.items():
        text, html, images = parts(msg)
        # what gm verify compares, under gm's marker line
        assert text == marked(archived_report(engine, msg.outbox_id, name))
        (cid, png), = images.items()
        assert f'<img src="cid:{cid}"' in html
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG"
        expected = pictures.picture(view.rules, view.state, name)
        assert png == expected and image.size == pictures.size(expected)
        assert f'width="{image.size[0]}" height="{image.size[1]}"' in html
        # the zine page: masthead, news in sentences, picture, standings, report, orders last
        order = [html.index(marker) for marker in
                 ('id="masthead"', 'id="news"', 'id="picture"', 'id="standings"', 'id="report"', 'id="orders"')]
        assert order == sorted(order)
        assert "Game nb1, turn" in html
        assert "http://" not in html and "https://" not in html.replace(
            "https://en.wikipedia.org", "")  # nothing fetched from outside
        assert "max-width:640px" in html and "<style" not in html
        assert msg.raw_size < MAX_HTML_MESSAGE_BYTES


def test_the_news_are_the_events_in_sentences(engine, nb_game):
    since = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "Rb4xd4", game_id="nb1", password=nb_game["ada"]))
    _, html, _ = parts(report_mails(engine, since)["bob"])
    news = html[html.index('id="news"'):html.index('id="picture"')]
    sentences = [line.split(">", 1)[1].split("</p")[0] for line in news.splitlines() if line.startswith("<p")]
    assert sentences == ["ada: Rb4xd4 takes a knight."]  # a name as written; a full stop


def test_news_sentences():
    from gm.present.mailhtml import news

    assert news(["the game ends", "  solution: a/b", "bob passes"], "The GM entered it.", ["bob"]) == [
        "The GM entered it.", "The game ends (solution: a/b).", "bob passes."]
    assert news(["bobby wins!"], names=["bob"]) == ["Bobby wins!"]


def test_the_html_escapes_what_it_shows():
    from gm.present import mailhtml

    page = mailhtml.ReportPage(shared={"title": "T", "title_line": "t", "game_id": "g<1>", "turn": 1,
                                       "is_over": False, "winners": [], "scores": [], "to_move": [],
                                       "help_hint": "h"},
                               text="a < b & <script>", events=["<img src=x>"], viewer=None, date="d",
                               press=["<i>press</i>"])
    html = mailhtml.render(page)
    assert "<script>" not in html and "<img src=x>" not in html and "<i>press" not in html
    assert "a &lt; b &amp; &lt;script&gt;" in html


@pytest.mark.parametrize("kind, players, options", [
    ("fuzzy-borders", SIX, {}),
    ("fuzzy-borders", SIX, {"side": str(FB_MAX_SIDE)}),
    ("phalanx", PLAYERS, {}),
    ("phalanx", PLAYERS, {"side": str(PH_MAX_SIDE)}),
])
def test_the_largest_boards_mail_is_under_150_kb(engine, kind, players, options):
    since = last_outbox_id(engine)
    engine.create_game(kind, "big", players, seed=3, options=options)
    view = report_now(engine, "big")
    mails = report_mails(engine, since)
    assert set(mails) == {name for name, _ in players}
    for name, msg in mails.items():
        assert msg.raw_size < 150 * 1024
        png = picture_of(msg)
        assert Image.open(io.BytesIO(png)).size == pictures.size(pictures.picture(view.rules, view.state, name))


def test_a_mail_too_large_for_html_goes_as_text_alone():
    big = bytes(range(256)) * 800  # 200 KB that do not compress: more than the limit
    _, raw = compose(sender="gm@localhost", sender_name="gm", to="ada@example.org", subject="s",
                     body="the report\n", html=HtmlPart("<p>page</p>", (("board.x@localhost", big),)))
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg.get_content_type() == "text/plain" and msg.get_content() == marked("the report\n")


# --- the seal: a player's picture and page show no one else's sealed order ------------------------
def test_fuzzy_borders_a_sealed_claim_is_only_in_its_players_mail(engine):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS3, seed=2)
    engine.ingest(order_mail("ada@example.org", "K11", game_id="fb1", password=secrets["ada"]))
    assert engine.load("fb1").state.sealed == {"ada": "K11"}
    since = last_outbox_id(engine)
    view = report_now(engine, "fb1")  # a report while ada's claim is sealed (as after a GM edit)
    mails = report_mails(engine, since)
    observer = pictures.picture(view.rules, view.state, OBSERVER)
    own = pictures.picture(view.rules, view.state, "ada")
    assert own != observer  # ada's picture shows her ring: the comparison below could fail
    assert picture_of(mails["ada"]) == own
    for other in ("bob", "cy"):
        assert picture_of(mails[other]) == observer
        text, html, _ = parts(mails[other])
        assert "K11" not in text and "K11" not in html and "sealed claim" not in html.lower()
    assert "K11" in parts(mails["ada"])[1]


def test_pivot_pawns_a_sealed_solution_is_only_in_its_players_mail(engine):
    secrets = engine.create_game("pivot-pawns", "pp1", PLAYERS3, seed=5)
    solution = "red/blue green/red red/black"
    engine.ingest(order_mail("ada@example.org", f"BID 3: {solution}", game_id="pp1", password=secrets["ada"]))
    since = last_outbox_id(engine)
    view = report_now(engine, "pp1")
    mails = report_mails(engine, since)
    observer = pictures.picture(view.rules, view.state, OBSERVER)
    assert picture_of(mails["ada"]) == pictures.picture(view.rules, view.state, "ada") != observer
    for other in ("bob", "cy"):
        assert picture_of(mails[other]) == observer
        assert "red/blue" not in parts(mails[other])[1]
    assert "red/blue" in parts(mails["ada"])[1]


def test_one_picture_is_drawn_for_all_who_see_the_same(engine, monkeypatch):
    engine.create_game("fuzzy-borders", "fb1", SIX, seed=2)
    drawn = []
    real = pictures.picture
    monkeypatch.setattr(pictures, "picture", lambda rules, state, viewer: drawn.append(viewer) or
                        real(rules, state, viewer))
    report_now(engine, "fb1")
    assert len(drawn) == 1  # six players, nothing sealed: one picture for all


def test_a_gm_can_turn_pictures_off(engine):
    from gm.service.play import lifecycle

    since = last_outbox_id(engine)
    engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"pictures": "off"})
    report_now(engine, "nb1")
    for msg in report_mails(engine, since).values():
        _, html, images = parts(msg)
        assert images == {} and "cid:" not in html
    lifecycle.change_settings(engine, "nb1", {"pictures": "on"})  # gm settings nb1 pictures=on
    since = last_outbox_id(engine)
    report_now(engine, "nb1")
    assert all(len(parts(msg)[2]) == 1 for msg in report_mails(engine, since).values())
    lifecycle.change_settings(engine, "nb1", {"pictures": "off"})
    since = last_outbox_id(engine)
    report_now(engine, "nb1")
    assert all(parts(msg)[2] == {} for msg in report_mails(engine, since).values())


def test_bad_option_values_are_refused():
    from games.base import OptionError
    from gm.core import options

    for bad in ({"format": "pdf"}, {"pictures": "maybe"}):
        with pytest.raises(OptionError):
            options.check_settings(bad)
    assert options.check_settings({"format": "TEXT", "pictures": "Off"}) == {"format": "text", "pictures": "off"}


def test_a_game_option_makes_text_the_default(engine):
    since = last_outbox_id(engine)
    engine.create_game("neighbors", "nb1", PLAYERS, seed=5, options={"format": "text"})
    report_now(engine, "nb1")
    for msg in report_mails(engine, since).values():
        assert msg.get_content_type() == "text/plain" and not msg.is_multipart()


def test_the_report_reaches_the_smtp_server_as_text_and_html(harness, dovecot, smtp):
    passwords = harness.new_game(seed=5, layout="....F.." "...F..." ".R.N.B." "......." ".F.Q.Q." ".......")
    daemon = harness.start()
    try:
        for _, address in PLAYERS:
            smtp.wait_for(address, 1)  # the welcome
        dovecot.append(order_mail("ada@example.org", "Rb4xd4", game_id="nb1", password=passwords["ada"]))
        received = {name: smtp.wait_for(address, 2)[-1] for name, address in PLAYERS}
    finally:
        daemon.stop()
    view = harness.engine.load("nb1")
    for name, sent in received.items():
        msg = email.message_from_bytes(sent.as_bytes(), policy=email.policy.default)
        text, html, images = parts(msg)
        row = harness.engine.store.one("SELECT outbox_id FROM reports WHERE game_id = 'nb1' AND player = :player "
                                       "AND kind = 'report' ORDER BY id DESC LIMIT 1", player=name)
        assert text == marked(archived_report(harness.engine, row["outbox_id"], name))
        assert list(images.values()) == [pictures.picture(view.rules, view.state, name)]


def test_a_board_reply_has_the_page_and_the_players_own_picture(engine):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS3, seed=2)
    engine.ingest(order_mail("ada@example.org", "K11", game_id="fb1", password=secrets["ada"]))
    since = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "BOARD", game_id="fb1", password=secrets["ada"]))
    (row,) = engine.store.all("SELECT * FROM outbox WHERE id > :since", since=since)
    msg = email.message_from_bytes(unpack_mail(row["raw"]), policy=email.policy.default)
    text, html, images = parts(msg)
    view = engine.load("fb1")
    assert list(images.values()) == [pictures.picture(view.rules, view.state, "ada")]
    archived = engine.store.one("SELECT body, body_packing FROM reports WHERE outbox_id = :outbox_id",
                                outbox_id=row["id"])
    assert text == marked(unpack_text(archived["body"], archived["body_packing"]))
    assert "K11" in text and "K11" in html
    # with another answer in the same reply, or for a player who reads text: text alone
    since = last_outbox_id(engine)
    engine.ingest(order_mail("bob@example.org", "BOARD\nHISTORY", game_id="fb1", password=secrets["bob"]))
    engine.ingest(order_mail("cy@example.org", "SET FORMAT TEXT", game_id="fb1", password=secrets["cy"]))
    engine.ingest(order_mail("cy@example.org", "BOARD", game_id="fb1", password=secrets["cy"]))
    for row in engine.store.all("SELECT raw FROM outbox WHERE id > :since", since=since):
        msg = email.message_from_bytes(unpack_mail(row["raw"]), policy=email.policy.default)
        assert msg.get_content_type() == "text/plain"
