"""Every mail's cost is bounded, in mails and in bytes: one mail makes gm queue at most
MAILS_PER_ADDRESS mails to any one address beyond the game's reports, whatever it holds.  Each
finding is driven through the real daemon path (mails delivered into the inbox Maildir, one pass
of gm run --once) and asserts every mail the daemon wrote to the outbox Maildir."""

from __future__ import annotations

from collections import Counter

from gm.service.outgoing import outbox as outbox_module
from gm.service.people import guessing, lobby
from mailroom import Mailroom, text_of
from support import EXAMPLE_LAYOUT, PLAYERS3, order_mail

ADA, BOB, CY = "ada@example.org", "bob@example.org", "cy@example.org"
EVE, REFEREE = "eve@evil.example", "referee@example.org"
VICTIM = "samevictim@example.net"


def flat(msg) -> str:
    return " ".join(text_of(msg).split())


def exchange(room: Mailroom, *raws: bytes) -> list[tuple[str, str, str]]:
    """``raws`` delivered, one pass of the daemon: (recipient, subject, flattened text) of each mail."""
    for raw in raws:
        room.deliver(raw)
    return [(envelope, msg["Subject"], flat(msg)) for envelope, msg in room.run()]


def nb1(room: Mailroom) -> dict[str, str]:
    secrets = room.engine.create_game("neighbors", "nb1", PLAYERS3, seed=5,
                                      options={"layout": EXAMPLE_LAYOUT})
    exchange(room)  # the welcomes
    return secrets


def press(to: str, text: str) -> str:
    return f"PRESS TO {to}\n{text}\nENDPRESS"


def test_three_hundred_press_blocks_make_one_press_mail_to_each_reader(tmp_path):
    """One mail, hundreds of mails: 300 blocks PRESS TO ada, GM queued 601 mails.  Now the blocks
    to the same players are one message: ada gets one mail, the GM one, bob one reply."""
    room = Mailroom(tmp_path, f"gm_address: {REFEREE}\n")
    secrets = nb1(room)
    blocks = "\n".join(press("ada, GM", f"note {n} of 300") for n in range(300))
    mails = exchange(room, order_mail(BOB, blocks, game_id="nb1", password=secrets["bob"]))
    assert Counter(m[0] for m in mails) == {ADA: 1, REFEREE: 1, BOB: 1}, [m[:2] for m in mails]
    (to_ada,) = [m for m in mails if m[0] == ADA]
    assert to_ada[1] == "[gm nb1] Press from bob"
    assert "note 0 of 300" in to_ada[2] and "note 299 of 300" in to_ada[2]
    (reply,) = [m for m in mails if m[0] == BOB]
    assert "Your press to ada, the game master was delivered" in reply[2]
    assert "(299 merged), one mail to each of them" in reply[2]


def test_press_to_many_lists_is_one_mail_to_each_reader_and_at_most_three_lists(tmp_path):
    """Blocks to different lists: each reader still gets one press mail, holding every message
    meant for them; a fourth list is refused, and the sender's one reply says so."""
    room = Mailroom(tmp_path, f"gm_address: {REFEREE}\n")
    secrets = nb1(room)
    text = "\n".join([press("ada", "to ada alone"), press("cy", "to cy alone"),
                      press("ada, cy", "to both"), press("ALL", "to all"), press("GM", "to the GM")])
    mails = exchange(room, order_mail(BOB, text, game_id="nb1", password=secrets["bob"]))
    assert Counter(m[0] for m in mails) == {ADA: 1, CY: 1, BOB: 1}, [m[:2] for m in mails]
    (to_ada,) = [m for m in mails if m[0] == ADA]
    assert "to ada alone" in to_ada[2] and "to both" in to_ada[2] and "to cy alone" not in to_ada[2]
    (reply,) = [m for m in mails if m[0] == BOB]
    assert "at most 3 different lists of players" in reply[2]
    assert "to all" not in " ".join(m[2] for m in mails if m[0] != BOB)


def test_set_address_lines_mail_one_code_and_the_caps_count_it(tmp_path):
    """SET ADDRESS mails anyone, uncapped: ten lines a mail, ten code mails to third parties.  Now
    one SET ADDRESS a mail; its code goes under the caps on code mails, so the same mailbox
    (another case, a +tag) gets no second code while the first is unanswered."""
    room = Mailroom(tmp_path)
    secrets = nb1(room)
    lines = [f"SET ADDRESS {VICTIM}", "SET ADDRESS samevictim+1@example.net"]
    lines += [f"SET ADDRESS other{n}@example.net" for n in range(8)]
    mails = exchange(room, order_mail(ADA, "\n".join(lines), game_id="nb1", password=secrets["ada"]))
    assert sorted(m[0] for m in mails) == sorted([ADA, VICTIM]), [m[:2] for m in mails]
    (code,) = [m for m in mails if m[0] == VICTIM]
    assert code[1].startswith("CONFIRM ") and "confirm your new address (nb1)" in code[1]
    (reply,) = [m for m in mails if m[0] == ADA]
    assert reply[2].count("one mail changes the address once") == 9
    for again in ("SameVictim@example.net", "samevictim+2@example.net"):
        mails = exchange(room, order_mail(ADA, f"SET ADDRESS {again}", game_id="nb1",
                                          password=secrets["ada"]))
        assert [m[0] for m in mails] == [ADA], [m[:2] for m in mails]
        assert "gm cannot mail a code to" in mails[0][2] and "unanswered" in mails[0][2]
    assert room.engine.store.seats.player("nb1", "ada")["email"] == ADA


def test_mail_to_the_game_master_stops_at_the_hourly_cap(tmp_path):
    """Nothing bounded mail to gm_address: press to GM, lock-outs a stranger causes... each was
    one more mail to the GM.  Now they count together: at most gm_alerts_per_hour (30) an hour,
    then one mail saying the cap is reached, then nothing, whoever sends what."""
    room = Mailroom(tmp_path, f"gm_address: {REFEREE}\n")
    secrets = nb1(room)
    mails = []
    for n in range(12):  # 36 press mails to the GM, 12 from each seat
        for name, address in PLAYERS3:
            mails += exchange(room, order_mail(address, press("GM", f"{name} {n}"), game_id="nb1",
                                               password=secrets[name]))
    for n in range(guessing.FAILURE_LIMIT):  # a stranger locks both seats and himself out
        mails += exchange(room, order_mail(EVE, "BOARD", game_id="nb1", password=f"guess-{n:04d}"))
    to_gm = [m for m in mails if m[0] == REFEREE]
    assert len(to_gm) == 31, len(to_gm)
    assert [m[1] for m in to_gm[:30]] == ["[gm nb1] Press from " + n for n in ["ada", "bob", "cy"] * 10]
    assert to_gm[30][1] == "[gm] The hourly cap on mail to the game master is reached"
    refused = [m for m in mails if m[0] in (ADA, BOB, CY) and "Press not delivered" in m[1]]
    assert len(refused) == 6 and all("at most 30 alerts an hour" in m[2] for m in refused)


def test_an_answer_to_a_stranger_is_at_most_64_kb(tmp_path):
    """A stranger's LIST on a server whose games make it long: the answer is cut at 64 KB, at a
    line, and says where to read the rest (the archive's pages, or ask with a password)."""
    room = Mailroom(tmp_path, "archive_url: https://example.org/games/\n")
    for i in range(10):  # open games whose players' names are long: a LIST of about 80 KB
        lobby.open_game(room.engine, "neighbors", f"g{i}", 6)
        with room.engine.store.write():
            for k in range(5):
                lobby.take_seat(room.engine, f"g{i}", f"p{k}" + "x" * 1500, f"p{k}.{i}@example.org", None)
    room.deliver(order_mail(EVE, "LIST\nSUMMARY\nHELP"))
    ((envelope, msg),) = room.run()
    text = msg.get_body(("plain",)).get_content()
    assert envelope == EVE and len(text.encode()) <= 64 * 1024 == outbox_module.STRANGER_BYTES
    assert "[gm cut this answer here: it sends at most 64 KB to a mail without a password." in text
    assert "The games' pages are at https://example.org/games/." in text
    assert "g9 " in text  # the newest game leads, uncut
