"""The archive's ladders, player pages and tournament pages through `gm archive build` and the
live archive, on a store whose rated games and tournament were played through the service:
every page and plot there, no address (nor its local part) in any file written, and each new
page laid out in headless Chromium at a phone's width and a desktop's."""

from __future__ import annotations

import re
import shutil

import pytest

from admin_helpers import neighbors_move, run_gm
from gm.present import community
from gm.runtime import browser
from gm.runtime.livearchive import LiveArchive
from gm.service.people import tournamentrounds, tournaments
from support import body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True

# Addresses whose local parts are no seat name, so that any of them on a page is a leak.
ADDRESSES = {"ada": "q7x1.home@example.net", "bob": "zz-k42@mail.example.com", "cy": "mwv9@example.org"}
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PHONE, DESKTOP = 375, 1280


def welcome_passwords(engine, since: int) -> dict[tuple[str, str], str]:
    """(game id, address) -> the password in each welcome mail since outbox row ``since``."""
    found = {}
    for mail in outbox(engine, since):
        text = body(mail)
        if "Your password: " in text and "GAME " in text:
            (line,) = [line for line in text.splitlines() if line.strip().startswith("Your password: ")]
            found[text.split("GAME ", 1)[1].split()[0], mail["To"]] = line.split(": ", 1)[1].strip()
    return found


def play_by_mail(engine, game_id: str, passwords: dict[tuple[str, str], str]) -> None:
    """Each player moves once by mail (a game where one never moved is not rated), then the
    player to move resigns."""
    address = {seat.name: seat.email for seat in engine.load(game_id).players}
    for _ in range(2):
        mover, move = neighbors_move(engine, game_id)
        engine.ingest(order_mail(address[mover], move, game_id=game_id, password=passwords[game_id, address[mover]]))
    mover, _ = neighbors_move(engine, game_id)
    engine.ingest(order_mail(address[mover], "RESIGN", game_id=game_id, password=passwords[game_id, address[mover]]))
    assert engine.load(game_id).status == "finished"


def rated_games_and_a_tournament(engine) -> None:
    """A rated game of ada and bob, then a rated round robin of three (a bye each round), all
    played by mail."""
    secrets = engine.create_game("neighbors", "nb1", [(n, ADDRESSES[n]) for n in ("ada", "bob")], seed=4,
                                 options={"rated": "true"})
    play_by_mail(engine, "nb1", {("nb1", ADDRESSES[name]): secret for name, secret in secrets.items()})
    tournaments.new(engine, "cup", "neighbors", "round-robin", 0, table_size=2, rated=True)
    for name in ("ada", "bob", "cy"):
        tournaments.enter(engine, "cup", name, ADDRESSES[name])
    since = last_outbox_id(engine)
    tournamentrounds.start(engine, "cup")
    for round_ in (1, 2, 3):
        passwords = welcome_passwords(engine, since)
        since = last_outbox_id(engine)
        play_by_mail(engine, f"cup-r{round_}-1", passwords)
        tournamentrounds.advance(engine)
    assert engine.store.tournaments.tournament("cup").status == "finished"


def build(engine, tmp_path):
    """`gm archive build` on the engine's store (its back end too)."""
    conf = tmp_path / "gm.yaml"
    lines = [f"data_dir: {engine.config.data_dir}", "address: gm@localhost"]
    if engine.config.store:
        lines.append(f"store: {engine.config.store}")
    conf.write_text("\n".join(lines) + "\n")
    result = run_gm(conf, "archive", "build", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    return tmp_path / "site"


def assert_no_address(directory) -> None:
    words = {*ADDRESSES.values(), *(address.split("@")[0] for address in ADDRESSES.values())}
    for path in directory.iterdir():
        data = path.read_bytes().lower()
        for word in words:
            assert word.encode() not in data, f"{word} in {path.name}"


def test_gm_archive_build_writes_the_community_pages_with_no_address(engine, tmp_path):
    rated_games_and_a_tournament(engine)
    site = build(engine, tmp_path)
    index = (site / "index.html").read_text()
    assert 'href="ladder-neighbors.html"' in index and 'href="tournament-cup.html"' in index
    ladder = (site / "ladder-neighbors.html").read_text()
    assert sorted(re.findall(r'<a href="player-(\w+)\.html">', ladder)) == ["ada", "bob", "cy"]
    ada = (site / "player-ada.html").read_text()
    assert len(re.findall(r'<tr class="result">', ada)) == 3  # nb1 and two games of the cup
    assert 'href="game-nb1.html"' in ada and 'src="player-ada-neighbors.png"' in ada
    assert (site / "player-ada-neighbors.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    cup = (site / "tournament-cup.html").read_text()
    assert cup.count('<tr class="standing">') == 3 and cup.count('<p class="byes">Bye: ') == 3
    assert all(f'href="game-cup-r{r}-1.html"' in cup for r in (1, 2, 3))
    assert all((site / f"game-cup-r{r}-1.html").exists() for r in (1, 2, 3))
    assert_no_address(site)


def test_the_live_archive_writes_them_and_follows_a_new_name(engine, tmp_path):
    rated_games_and_a_tournament(engine)
    site = tmp_path / "site"
    live = LiveArchive(engine, site)
    live.refresh()
    assert (site / "player-cy.html").exists() and (site / "tournament-cup.html").exists()
    assert_no_address(site)  # .gm-archive.json too
    player = engine.store.community.by_name("cy")
    with engine.store.write():
        engine.store.community.rename(player.player_id, "Cyrano", engine.clock())
    live.community_next = 0.0  # due now, as a minute later
    live.refresh()
    assert (site / community.player_page("Cyrano")).exists() and not (site / "player-cy.html").exists()
    assert 'href="player-cyrano.html">Cyrano</a>' in (site / "ladder-neighbors.html").read_text()


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed "
                    "(Debian: apt-get install -y chromium)")
def test_the_pages_fit_a_phone_and_a_desktop(engine, tmp_path, request):
    if "postgresql" in request.node.name:
        pytest.skip("the layout is the same whatever the store: checked once")
    rated_games_and_a_tournament(engine)
    site = build(engine, tmp_path)
    for page in ("ladder-neighbors.html", "player-ada.html", "tournament-cup.html", "index.html"):
        for width in (PHONE, DESKTOP):
            shown = browser.layout(site / page, width)
            assert shown["width"] == width and shown["scroll_width"] <= width, (page, width, shown)
            for box in shown["boxes"]:  # a wide table scrolls in its own box, inside the screen
                assert 0 <= box["left"] and box["right"] <= width, (page, width, box)
            for image in shown["images"]:  # the plot loaded, and is drawn within the screen
                assert image["natural_width"] > 0 and 0 < image["width"] and image["right"] <= width, (page, image)
    plots = browser.layout(site / "player-ada.html", PHONE)["images"]
    assert [image["src"] for image in plots] == ["player-ada-neighbors.png"]
    assert plots[0]["alt"].startswith("ada's Neighbors rating after each of 3 rated games: ")


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed "
                    "(Debian: apt-get install -y chromium)")
def test_the_browser_measures_a_page_at_a_width(tmp_path):
    (tmp_path / "wide.html").write_text('<!DOCTYPE html><html><head></head><body style="margin:0">'
                                        '<div style="width:600px">wide</div></body></html>')
    assert browser.layout(tmp_path / "wide.html", PHONE)["scroll_width"] == 600
    assert browser.layout(tmp_path / "wide.html", DESKTOP)["scroll_width"] == DESKTOP
    with pytest.raises(browser.PageMissing):
        browser.layout(tmp_path / "nowhere.html", PHONE)


def test_a_fault_in_the_community_pages_leaves_the_games_written(engine, tmp_path, monkeypatch, caplog):
    from gm.service.records import communitypages

    engine.create_game("neighbors", "nb1", [(n, ADDRESSES[n]) for n in ("ada", "bob")], seed=4)

    def broken(ctx):
        raise OSError("disk full")

    monkeypatch.setattr(communitypages, "community_data", broken)
    live = LiveArchive(engine, tmp_path / "site")
    assert live.refresh() == ["nb1"]
    assert (tmp_path / "site" / "game-nb1.html").exists() and (tmp_path / "site" / "index.html").exists()
    live.community_next = 0.0
    live.refresh()
    assert caplog.text.count("the community pages could not be written") == 1  # once while it lasts
