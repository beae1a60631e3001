"""A whole game of each kind played by mail in German and in French (on both back ends): after
each player's SET LANGUAGE, no English word is left in any mail gm sends them, beyond the
order notation and the names (a word list), and no line is wider than 78 columns.

The players are chosen, and their orders drawn, from a seeded RNG as in the random-play
tests; a game the random orders have not ended after a while is ended by resignations, so
every path to the end mail is taken.
"""

from __future__ import annotations

import random

import pytest

from games import registry
from support import body, last_outbox_id, order_mail, outbox, players_for

# English words no German or French sentence has (so none may be in a German or French mail):
# not "in", "an", "so", "a", "on", "was", "also", "mail"...  The games' order words and gm's
# command words are notation, written in capitals (CLAIM, MOVE, PASS, HELP): those are not counted.
ENGLISH = frozenset("""
the your you yours and with for this that these has have had will would which what when who
game games turn turns order orders player players board deadline waiting reply send sent
password is are were been being it its of from by not nobody yet please next now here
there their they them our we us my me do does done did can cannot could should may must
left right won win wins winner winners lost moves move claim claims bid bids
card cards hand piece pieces write wrote written set changed nothing only every each after
before until than then more less most first last new old see shows shown keep kept
""".split())
ON_BOTH_BACKENDS = True
MAX_STEPS = 300
MAX_WIDTH = 78


NOTATION = frozenset("CLAIM GROW MOVE PASS BID HELP RESIGN DRAW GAME PASSWORD REMATCH".split())


def words(text: str) -> list[str]:
    """The words of a text: letters only, lower case, without the notation words (notation such
    as a1-b2 or 3e splits to pieces no English word is made of)."""
    cleaned = "".join(ch if ch.isalpha() else " " for ch in text)
    return [word.lower() for word in cleaned.split() if word not in NOTATION]


def english_left(text: str) -> set[str]:
    return {word for word in words(text) if word in ENGLISH}


def play_by_mail(engine, kind: str, language: str, seed: int) -> tuple[list[str], int]:
    """A game of ``kind`` whose players asked for ``language`` by mail, played by mail to its end;
    the players and the outbox id after their SET LANGUAGE replies."""
    rules = registry.get(kind)
    rng = random.Random(seed)
    names = players_for(rules, rng)
    game_id = f"{kind[:2]}{language}{seed}"
    passwords = engine.create_game(kind, game_id, [(n, f"{n}@example.org") for n in names], seed=seed)

    def send(name: str, text: str) -> None:
        engine.ingest(order_mail(f"{name}@example.org", text, game_id=game_id, password=passwords[name],
                                 subject=game_id))  # the player's own subject is theirs, not gm's words

    for name in names:
        send(name, f"SET LANGUAGE {language}")
    since = last_outbox_id(engine)
    for _ in range(MAX_STEPS):
        view = engine.load(game_id)
        if view.status != "active":
            break
        for mover in rules.to_move(view.state):
            text = rules.random_order(engine.load(game_id).state, mover, rng)
            if text is not None:
                send(mover, text)
    view = engine.load(game_id)
    for name in rules.remaining(view.state)[:-1] if view.status == "active" else []:
        send(name, "RESIGN")
    assert engine.load(game_id).status == "finished"
    return names, since


@pytest.mark.parametrize("language", ["de", "fr"])
@pytest.mark.parametrize("kind", registry.available())
def test_a_whole_game_by_mail_has_no_english_word(engine, kind, language):
    names, since = play_by_mail(engine, kind, language, seed=7)
    mails = [m for m in outbox(engine, since) if m["To"].split("@")[0] in names]
    assert len(mails) >= len(names)  # at least the end mail to each
    found = {}
    for mail in mails:
        assert mail["Content-Language"] == language, mail["Subject"]
        text = mail["Subject"] + "\n" + body(mail)
        left = english_left(text)
        if left:
            found[mail["Subject"]] = sorted(left)
        wide = [line for line in body(mail).splitlines() if len(line) > MAX_WIDTH]
        assert not wide, (mail["Subject"], wide[:3])
    assert not found, found


def test_the_word_check_finds_english_and_passes_german_and_french():
    assert english_left("Your turn: send your orders by the deadline.") == {
        "your", "turn", "send", "orders", "by", "the", "deadline"}
    assert not english_left("Du bist am Zug: schicke deine Befehle bis zur Frist (a1-b2, ada).")
    assert not english_left("ada ist am Zug: Zeilen mit GROW und MOVE, oder PASS; was also?")
    assert english_left("Move your piece") == {"move", "your", "piece"}
    assert not english_left("C'est votre tour : envoyez vos ordres avant l'échéance (a1-b2, bob).")
