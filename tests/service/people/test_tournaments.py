"""Tournaments through the service: entries by the GM and by mail (with the opt-in code, capped,
held for approval), the start and its refusals, round games with their welcomes, withdrawal,
the GM's next round, and STANDINGS (public names, never an address)."""

from __future__ import annotations

import pytest

from gm.core.model import ServiceError
from gm.service.people import tournamentrounds, tournaments
from support import ask, body, confirmed, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # gm.store.tournaments on SQLite and PostgreSQL


def said(engine, sender: str, text: str) -> str:
    """The one reply to a mail, its lines joined (wrapping aside)."""
    return " ".join(ask(engine, sender, text).split())


def password_in(text: str) -> str:
    (line,) = [line for line in text.splitlines() if line.strip().startswith("Your password: ")]
    return line.split(": ", 1)[1].strip()


def welcomes(engine, since: int) -> dict[str, tuple[str, str]]:
    """The welcome mails since ``since``: address -> (game id, password)."""
    found = {}
    for mail in outbox(engine, since):
        if "Welcome" in mail["Subject"]:
            text = body(mail)
            game_id = text.split("GAME ", 1)[1].split()[0] if "GAME " in text else mail["Subject"]
            found[mail["To"]] = (game_id, password_in(text))
    return found


def entered(engine, tid: str, names: list[str]) -> None:
    for name in names:
        tournaments.enter(engine, tid, name, f"{name}@example.org")


@pytest.fixture
def spring(engine):
    tournaments.new(engine, "spring", "proximity", "round-robin", 0)
    return "spring"


def test_join_tournament_by_mail_waits_for_the_code_then_enters(engine, spring):
    text = confirmed(engine, "ada@example.org", "JOIN TOURNAMENT spring ada")
    assert "ada entered tournament spring" in text
    (entry,) = engine.store.tournaments.entries("spring")
    assert entry.seat_name == "ada" and entry.status == "entered"
    assert engine.store.community.player(entry.player_id).address == "ada@example.org"


def test_join_tournament_is_capped_and_refuses_a_second_entry_of_an_address(engine):
    tournaments.new(engine, "cup", "proximity", "swiss", 3, cap=2)
    entered(engine, "cup", ["ada"])
    assert "already entered tournament cup" in said(engine, "ada@example.org", "JOIN TOURNAMENT cup ada2")
    assert "already called ADA" in said(engine, "bob@example.org", "JOIN TOURNAMENT cup ADA")
    confirmed(engine, "bob@example.org", "JOIN TOURNAMENT cup bob")
    text = said(engine, "cy@example.org", "JOIN TOURNAMENT cup cy")
    assert "is full (2 entries)" in text and "Nothing was changed" in text
    assert len(engine.store.tournaments.entries("cup")) == 2


@pytest.mark.parametrize("line, says", [
    ("JOIN TOURNAMENT spring", "write JOIN TOURNAMENT <tournament id> <your name>"),
    ("JOIN TOURNAMENT autumn ada", "no tournament 'autumn'"),
    ("JOIN TOURNAMENT spring a.da", "one word"),
    ("WITHDRAW TOURNAMENT", "write WITHDRAW TOURNAMENT <tournament id>"),
])
def test_bad_tournament_lines_are_refused(engine, spring, line, says):
    text = said(engine, "ada@example.org", line)
    assert says in text and "Nothing was changed" in text
    assert engine.store.tournaments.entries("spring") == []


def test_approval_holds_a_mail_entry_until_the_gm_approves_it(engine):
    tournaments.new(engine, "club", "proximity", "round-robin", 0, approval=True)
    text = confirmed(engine, "ada@example.org", "JOIN TOURNAMENT club ada")
    assert "approves entries first" in " ".join(text.split())
    confirmed(engine, "bob@example.org", "JOIN TOURNAMENT club bob")
    assert [e.status for e in engine.store.tournaments.entries("club")] == ["pending", "pending"]
    with pytest.raises(ServiceError, match="0 player"):
        tournamentrounds.start(engine, "club")
    assert tournaments.approve(engine, "club", "ada") == "ada entered tournament club"
    with pytest.raises(ServiceError, match="not pending"):
        tournaments.approve(engine, "club", "ada")
    tournaments.enter(engine, "club", "cy", "cy@example.org")  # the GM's own entry needs no approval
    assert {e.seat_name: e.status for e in engine.store.tournaments.entries("club")} == {
        "ada": "entered", "bob": "pending", "cy": "entered"}


@pytest.mark.parametrize("args, says", [
    (("x" * 21, "proximity", "swiss", 3), "1 to 20"),
    (("t1", "chess", "swiss", 3), "no game kind"),
    (("t1", "proximity", "knockout", 3), "round-robin or swiss"),
    (("t1", "proximity", "swiss", 0), "at least one round"),
    (("t1", "fuzzy-borders", "swiss", 3), "--table-size"),
    (("t1", "proximity", "swiss", 3, None, True), "--twice"),
])
def test_bad_tournaments_are_refused(engine, args, says):
    with pytest.raises(ServiceError, match=says):
        tournaments.new(engine, *args)
    assert engine.store.tournaments.every_tournament() == []


def test_start_refuses_too_few_and_tables_a_format_cannot_seat(engine, spring):
    entered(engine, "spring", ["ada"])
    with pytest.raises(ServiceError, match="needs 2 to start"):
        tournamentrounds.start(engine, "spring")
    tournaments.new(engine, "fb", "fuzzy-borders", "round-robin", 0, table_size=4)
    entered(engine, "fb", ["ada", "bob", "cy", "dee"])
    with pytest.raises(ServiceError, match="round robin seats two"):
        tournamentrounds.start(engine, "fb")
    tournaments.new(engine, "fbs", "fuzzy-borders", "swiss", 2, table_size=4)
    entered(engine, "fbs", ["ada", "bob", "cy"])
    with pytest.raises(ServiceError, match="fewer than a table of 4"):
        tournamentrounds.start(engine, "fbs")
    assert engine.store.tournaments.tournament("fbs").status == "open"


def test_the_start_makes_round_one_games_rated_and_welcomed(engine):
    tournaments.new(engine, "spring", "proximity", "round-robin", 0, rated=True, options={"deadline": "3d"})
    entered(engine, "spring", ["ada", "bob", "cy", "dee"])
    start = last_outbox_id(engine)
    assert "3 rounds" in tournamentrounds.start(engine, "spring")
    row = engine.store.tournaments.tournament("spring")
    assert (row.status, row.round, row.rounds) == ("running", 1, 3)
    seats = engine.store.tournaments.round_seats("spring", 1)
    game_ids = sorted({s.game_id for s in seats})
    assert game_ids == ["spring-r1-1", "spring-r1-2"]
    for game_id in game_ids:
        view = engine.load(game_id)
        assert engine.store.games.settings_of(game_id)["rated"] == "true"
        assert engine.store.games.settings_of(game_id)["deadline"] == "3d"
        assert len(view.players) == 2
    got = welcomes(engine, start)
    assert sorted(got) == [f"{n}@example.org" for n in ("ada", "bob", "cy", "dee")]
    with pytest.raises(ServiceError, match="started"):
        tournaments.enter(engine, "spring", "eve", "eve@example.org")


def play_out(engine, game_id: str, secrets: dict[str, str], loser: str) -> None:
    """The game ended by mail: ``loser`` resigns."""
    engine.ingest(order_mail(f"{loser}@example.org", "RESIGN", game_id=game_id, password=secrets[loser]))
    assert engine.load(game_id).status == "finished"


def round_passwords(engine, since: int) -> dict[str, str]:
    return {address.split("@")[0]: secret for address, (_, secret) in welcomes(engine, since).items()}


def test_rounds_follow_by_the_daemon_pass_and_standings_show_no_address(engine, spring):
    entered(engine, "spring", ["ada", "bob", "cy"])
    start = last_outbox_id(engine)
    tournamentrounds.start(engine, "spring")
    secrets = round_passwords(engine, start)
    (bye,) = [s for s in engine.store.tournaments.round_seats("spring", 1) if s.board == 0]
    (table,) = [s.game_id for s in engine.store.tournaments.round_seats("spring", 1) if s.seat == 0 and s.board]
    view = engine.load(table)
    loser = view.players[1].name
    engine.tick()  # the round's game runs: no next round yet
    assert engine.store.tournaments.tournament("spring").round == 1
    play_out(engine, table, secrets, loser)
    done = engine.tick()
    assert any("tournament spring: round 2" in d for d in done)
    assert engine.store.tournaments.tournament("spring").round == 2
    # The one who resigned stays in the tournament: paired again (or given the bye).
    loser_id = [e.player_id for e in engine.store.tournaments.entries("spring") if e.seat_name == loser]
    assert [s for s in engine.store.tournaments.round_seats("spring", 2) if s.player_id in loser_id]
    (told,) = [m for m in outbox(engine, start) if "round 1" in m["Subject"]]
    assert told["To"] == engine.store.community.player(bye.player_id).address and "bye" in body(told)
    text = ask(engine, "stranger@example.net", "STANDINGS spring")
    assert "Buchholz" in text and "Sonneborn-Berger" in text and "bye:" in text
    assert "1-0" in text or "0-1" in text
    assert "example.org" not in text
    assert bye.player_id in {e.player_id for e in engine.store.tournaments.entries("spring")}


def test_withdrawal_by_mail_forfeits_the_later_round_robin_games(engine, spring):
    entered(engine, "spring", ["ada", "bob", "cy", "dee"])
    tournamentrounds.start(engine, "spring")
    text = " ".join(confirmed(engine, "dee@example.org", "WITHDRAW TOURNAMENT spring").split())
    assert "dee withdrew from tournament spring" in text and "goes on" in text
    assert "has no entry" in said(engine, "eve@example.org", "WITHDRAW TOURNAMENT spring")
    # Leaving a game does not withdraw: dee's round-1 game still runs, dee is still listed.
    tournamentrounds.force_next(engine, "spring", who="gm", why="a test")
    seats = engine.store.tournaments.round_seats("spring", 2)
    dees = {e.player_id for e in engine.store.tournaments.entries("spring") if e.seat_name == "dee"}
    (forfeit,) = [s for s in seats if s.player_id in dees]
    assert forfeit.game_id is None and forfeit.board > 0
    info = tournaments.summary(engine, "spring")
    (table,) = [t for t in info["rounds_played"][1]["tables"] if t["game_id"] is None]
    assert "forfeit" in table["result"]
    winner = [p for p in table["players"] if p != "dee"][0]
    (line,) = [s for s in info["standings"] if s["name"] == winner]
    assert line["points"] == 1.0
    (dee,) = [s for s in info["standings"] if s["name"] == "dee"]
    assert dee["withdrawn"]


def test_the_gm_withdraws_a_player_and_it_is_told(engine, spring):
    entered(engine, "spring", ["ada", "bob"])
    start = last_outbox_id(engine)
    tournaments.withdraw_by_gm(engine, "spring", "bob", who="gm:alice", why="no longer playing")
    (mail,) = [m for m in outbox(engine, start) if m["To"] == "bob@example.org"]
    assert "no longer playing" in body(mail)
    with pytest.raises(ServiceError, match="already withdrawn"):
        tournaments.withdraw(engine, "spring", "bob")
    with pytest.raises(ServiceError, match="needs 2"):
        tournamentrounds.start(engine, "spring")


def test_next_while_games_run_makes_the_round_and_says_so(engine, spring):
    entered(engine, "spring", ["ada", "bob", "cy", "dee"])
    tournamentrounds.start(engine, "spring")
    told = tournamentrounds.force_next(engine, "spring", who="gm", why="slow players")
    assert "round 2" in told and "still run" in told
    assert engine.store.tournaments.tournament("spring").round == 2
    game_id = engine.store.tournaments.round_seats("spring", 2)[0].game_id
    assert any("slow players" in h.detail for h in engine.store.history.history_of(game_id))
    with pytest.raises(ServiceError, match="no tournament"):
        tournamentrounds.force_next(engine, "nope")


def test_standings_of_an_unknown_tournament_is_refused(engine):
    assert "no tournament" in said(engine, "stranger@example.net", "STANDINGS nope")


def test_a_double_round_robin_plays_every_pairing_twice_with_the_seats_swapped(engine):
    tournaments.new(engine, "dbl", "proximity", "round-robin", 0, twice=True)
    entered(engine, "dbl", ["ada", "bob", "cy", "dee"])
    assert "6 rounds" in tournamentrounds.start(engine, "dbl")
    for _ in range(5):
        tournamentrounds.force_next(engine, "dbl")
    tables: dict[tuple[int, int], list] = {}
    for seat in engine.store.tournaments.table_seats("dbl"):
        tables.setdefault((seat.round, seat.board), []).append(seat.player_id)
    ordered = [tuple(t) for t in tables.values()]
    assert len(ordered) == 12 and len(set(ordered)) == 12
    assert len({frozenset(t) for t in ordered}) == 6  # the six pairs of four, each twice
    assert all(t[::-1] in ordered for t in ordered)  # once each way round


def test_a_swiss_withdrawal_is_not_paired_again_and_a_swiss_out_of_pairings_ends(engine):
    tournaments.new(engine, "sw", "proximity", "swiss", 9)
    entered(engine, "sw", ["ada", "bob", "cy", "dee", "eve"])
    tournamentrounds.start(engine, "sw")
    tournaments.withdraw(engine, "sw", "eve")
    eve = [e.player_id for e in engine.store.tournaments.entries("sw") if e.seat_name == "eve"]
    told = ""
    for _ in range(8):
        told = tournamentrounds.force_next(engine, "sw")
        row = engine.store.tournaments.tournament("sw")
        if row.status == "finished":
            break
        assert not [s for s in engine.store.tournaments.round_seats("sw", row.round) if s.player_id in eve]
    # The four left soon have no pairing that repeats none: it ends there, its rounds those played.
    assert "finished" in told
    row = engine.store.tournaments.tournament("sw")
    assert row.status == "finished" and row.round == row.rounds < 9
    with pytest.raises(ServiceError, match="not running"):
        tournamentrounds.force_next(engine, "sw")



def test_a_tournament_whose_round_fails_does_not_stop_the_others(engine, spring, monkeypatch, caplog):
    tournaments.new(engine, "autumn", "proximity", "round-robin", 0)
    entered(engine, "spring", ["ada", "bob"])
    tournaments.enter(engine, "autumn", "cy", "cy@example.org")
    tournaments.enter(engine, "autumn", "dee", "dee@example.org")
    for tid in ("spring", "autumn"):
        tournamentrounds.start(engine, tid)
    real = tournamentrounds.begin_round

    def failing(ctx, row):
        if row.id == "spring":
            raise RuntimeError("spring broke")
        return real(ctx, row)

    monkeypatch.setattr(tournamentrounds, "round_over", lambda ctx, row: True)
    monkeypatch.setattr(tournamentrounds, "begin_round", failing)
    done = engine.tick()
    assert done == ["tournament autumn: finished; the final standings mailed to every player"]
    assert "the next round of tournament spring failed" in caplog.text
    assert engine.store.tournaments.tournament("spring").status == "running"
