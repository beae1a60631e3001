"""The archive site kept current by the daemon (config archive_dir), on a real Dovecot and SMTP
server: after a turn only that game's files and the index are rewritten, each file whole, and
each game has an Atom feed with one entry per turn."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from gm.present import archive as site
from gm.present import feeds
from gm.runtime.livearchive import STATE_FILE, LiveArchive
from gm.service.records import audit
from harness import wait_until
from support import PLAYERS, PLAYERS3, order_mail

ATOM = "{http://www.w3.org/2005/Atom}"
ADDRESS = dict(PLAYERS)


def entries(path) -> list[ET.Element]:
    """The entries of an Atom feed, after checking what RFC 4287 requires of the feed and each."""
    feed = ET.parse(path).getroot()
    assert feed.tag == f"{ATOM}feed"
    for element in [feed, *feed.findall(f"{ATOM}entry")]:
        for required in ("id", "title", "updated"):
            assert element.find(f"{ATOM}{required}").text, required
    assert feed.find(f"{ATOM}author/{ATOM}name").text
    for entry in feed.findall(f"{ATOM}entry"):
        assert entry.find(f"{ATOM}link[@rel='alternate']").get("href").startswith("game-")
    return feed.findall(f"{ATOM}entry")


def inode(path) -> int:
    return path.stat().st_ino  # os.replace gives a rewritten file a new inode


def test_the_daemon_keeps_the_archive_current(harness, dovecot, smtp, tmp_path):
    out = tmp_path / "site"
    harness.reconfigure(archive_dir=str(out))
    passwords = harness.new_game("nb1", seed=3)
    harness.new_game("nb2", seed=4)
    daemon = harness.start()
    try:
        wait_until(lambda: (out / "game-nb2.html").exists() and (out / "index.html").exists(),
                   what="the archive written at start")
        nb1, nb2, index = out / "game-nb1.html", out / "game-nb2.html", out / "index.html"
        before = {p: inode(p) for p in (nb1, nb2, index, out / "game-nb2.atom")}
        assert len(entries(out / "game-nb1.atom")) == 1
        mover, legal = harness.legal("nb1")
        dovecot.append(order_mail(ADDRESS[mover], legal[0], game_id="nb1", password=passwords[mover]))
        wait_until(lambda: nb1.read_text().count('<section class="turn"') == 2, what="turn 2 on the page")
        wait_until(lambda: len(entries(out / "game-nb1.atom")) == 2, what="turn 2 in the feed")
    finally:
        daemon.stop()
    assert inode(nb1) != before[nb1]  # that game's page was rewritten...
    assert inode(nb2) == before[nb2] and inode(out / "game-nb2.atom") == before[out / "game-nb2.atom"]
    assert (out / "game-nb1-turn-2.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(out.glob("*.tmp")) and not list(out.glob(".*.tmp"))  # no half-written file left
    titles = [e.find(f"{ATOM}title").text for e in entries(out / "game-nb1.atom")]
    assert titles == ["Neighbors game nb1, turn 2", "Neighbors game nb1, turn 1"]
    ids = {e.find(f"{ATOM}id").text for e in entries(out / "game-nb1.atom")}
    assert len(ids) == 2 and all(i.startswith("tag:example.test,") for i in ids)
    page = index.read_text()
    assert 'href="game-nb1.atom"' in page and "Last change" in page
    assert page.index('data-game="nb1"') < page.index('data-game="nb2"')


def test_a_restarted_archive_carries_on_and_draws_no_picture_twice(engine, tmp_path, monkeypatch):
    from gm.present import pictures

    engine.create_game("neighbors", "nb1", PLAYERS, seed=3)
    live = LiveArchive(engine, tmp_path / "site")
    assert live.refresh() == ["nb1"]
    assert live.refresh() == []  # nothing new
    view = engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    engine.gm_order("nb1", mover, view.rules.legal_orders(view.state, mover)[0])
    drawn = []
    real = pictures.picture
    monkeypatch.setattr(pictures, "picture", lambda *a: drawn.append(a) or real(*a))
    again = LiveArchive(engine, tmp_path / "site")  # a new daemon reads what was done
    assert again.refresh() == ["nb1"]
    assert len(drawn) == 1  # turn 2's picture only: turn 1's is on disk
    assert (tmp_path / "site" / STATE_FILE).exists()
    assert 'src="game-nb1-turn-1.png"' in (tmp_path / "site" / "game-nb1.html").read_text()


def test_the_feed_is_an_observers_view(engine, tmp_path):
    secrets = engine.create_game("fuzzy-borders", "fb1", PLAYERS3, seed=2)
    engine.ingest(order_mail("ada@example.org", "K11", game_id="fb1", password=secrets["ada"]))
    data = audit.archive_data(engine, "fb1")
    site.write_game(tmp_path, data, data["updated_at"], "example.test")
    feed = (tmp_path / feeds.feed_name("fb1")).read_text()
    assert "K11" not in feed and "sealed" not in feed.lower()
    assert len(entries(tmp_path / feeds.feed_name("fb1"))) == 1


# --- the live archive never stalls ----------------------------------------------------------
def refreshes(live: LiveArchive, times: int) -> list[list[str]]:
    """What each of ``times`` refreshes as the daemon makes them (maybe_refresh, which logs a
    fault instead of raising) rendered, the wait between them skipped."""
    done = []
    for _ in range(times):
        live.next_look = 0.0
        done.append(live.maybe_refresh())
    return done


def test_an_open_game_beside_running_ones_is_listed_as_recruiting(engine, tmp_path, caplog):
    from support import confirmed

    from gm.service.people import lobby

    engine.create_game("neighbors", "nb1", PLAYERS, seed=3)
    lobby.open_game(engine, "neighbors", "nb7", 3, min_seats=2, seed=4)
    confirmed(engine, "zed@example.org", "JOIN nb7 zed")
    live = LiveArchive(engine, tmp_path / "site")
    assert refreshes(live, 3) == [["nb1", "nb7"], [], []]
    assert not [r for r in caplog.records if "could not be written" in r.getMessage()]
    index = (tmp_path / "site" / "index.html").read_text()
    row = index[index.index('data-game="nb7"'):].split("</tr>")[0]
    assert "recruiting" in row and "2 of 3 seats free" in row and "zed" in row
    assert "zed@example.org" not in index and "@" not in row  # names, never addresses
    assert 'href="game-nb7.html"' not in index and not (tmp_path / "site" / "game-nb7.html").exists()
    assert 'href="game-nb1.html"' in index and (tmp_path / "site" / "game-nb1.html").exists()
    confirmed(engine, "yan@example.org", "JOIN nb7 yan")  # a seat taken: the index says so
    assert refreshes(live, 1) == [["nb7"]]
    assert "1 of 3 seats free" in (tmp_path / "site" / "index.html").read_text()


def test_a_game_that_cannot_be_rendered_is_skipped_and_logged_once(engine, tmp_path, caplog):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=3)
    engine.create_game("neighbors", "nb2", PLAYERS, seed=4)
    with engine.store.write():  # a stored state the rules can no longer read
        engine.store.db.execute("UPDATE states SET state = 'not a state' WHERE game_id = 'nb2'")
    live = LiveArchive(engine, tmp_path / "site")
    site_dir = tmp_path / "site"
    for turn in (2, 3, 4):
        assert refreshes(live, 2)[0] == ["nb1"]
        view = engine.load("nb1")
        (mover,) = view.rules.to_move(view.state)
        engine.gm_order("nb1", mover, view.rules.legal_orders(view.state, mover)[0])
    assert refreshes(live, 1) == [["nb1"]]
    about_nb2 = [r for r in caplog.records if "nb2" in r.getMessage()]
    assert len(about_nb2) == 1 and about_nb2[0].levelname == "ERROR"
    assert not [r for r in caplog.records if "could not be written" in r.getMessage()]
    assert (site_dir / "game-nb1.html").read_text().count('<section class="turn"') == 4
    index = (site_dir / "index.html").read_text()
    assert 'data-game="nb1"' in index and 'data-game="nb2"' not in index
    assert not (site_dir / "game-nb2.html").exists()


def test_a_refresh_renders_only_the_game_that_moved(engine, tmp_path, monkeypatch):
    from gm.service.people import lobby

    engine.create_game("neighbors", "nb1", PLAYERS, seed=3)
    engine.create_game("neighbors", "nb2", PLAYERS, seed=4)
    lobby.open_game(engine, "neighbors", "nb7", 3, min_seats=2, seed=4)
    rendered = []
    real = audit.archive_data
    monkeypatch.setattr(audit, "archive_data", lambda ctx, gid, **kw: rendered.append(gid) or real(ctx, gid, **kw))
    live = LiveArchive(engine, tmp_path / "site")
    refreshes(live, 3)
    assert sorted(rendered) == ["nb1", "nb2"]  # each once, however many refreshes
    rendered.clear()
    view = engine.load("nb2")
    (mover,) = view.rules.to_move(view.state)
    engine.gm_order("nb2", mover, view.rules.legal_orders(view.state, mover)[0])
    assert refreshes(live, 3) == [["nb2"], [], []]
    assert rendered == ["nb2"]
    assert (tmp_path / "site" / "game-nb2.html").read_text().count('<section class="turn"') == 2


def test_a_fault_that_lasts_is_logged_once_and_the_archive_written_when_it_ends(engine, tmp_path, caplog):
    caplog.set_level("INFO", logger="gm.runtime.livearchive")
    engine.create_game("neighbors", "nb1", PLAYERS, seed=3)
    site_dir = tmp_path / "site"
    site_dir.write_text("a file where the directory should be")
    live = LiveArchive(engine, site_dir)
    assert refreshes(live, 3) == [[], [], []]
    assert len([r for r in caplog.records if "could not be written" in r.getMessage()]) == 1
    site_dir.unlink()
    assert refreshes(live, 1) == [["nb1"]] and (site_dir / "index.html").exists()
    assert [r for r in caplog.records if "is written again" in r.getMessage()]
