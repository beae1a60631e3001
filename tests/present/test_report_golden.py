"""The reports' words and pictures, held to recorded hashes of every byte and pixel.

Every game is played for a few rounds with fixed seeds on the test clock; of every mail gm
queued but the welcomes (they carry fresh passwords), the text part's bytes and the
pixels of each PNG (decoded with Pillow) are hashed, one hash for the words and one for
the pixels per game.  The hashes were computed at the commit before the cuts (branch
lean's first); a change in how a report is worded, or in a single pixel of a picture,
fails here.  The marker line every mail gm sends starts with (gm.mail.quotes.MARKER) is
checked, then left out of the hash.  Making mail or pictures faster must leave both alone.  If a change of wording
is meant, compute the new hashes with ``python tests/present/test_report_golden.py``.
"""

from __future__ import annotations

import hashlib
import io
import sys

import pytest
from PIL import Image

from gm.mail.quotes import MARKER
from support import outbox, play_game

MARKED = (MARKER + "\n\n").encode()  # gm's marker line tops each text part; the words below it are held

STEPS = 12  # rounds played in each game
GOLDEN = {  # kind: (sha256 of the text parts, sha256 of the pictures' pixels), at the base commit
    'fuzzy-borders': ('be863bbed42c062eaf8ea8a07175a824b1d45e0dd1a33fd12e76a6126338bb56',
                      '82eef779379214da4621dc3a793560c132376f43b151941a75b46005b8c9de0a'),
    'neighbors': ('c877ac17a05349143c1e656d462bc180816addec3b06627b06a68a9dcae1a687',
                  '91a92fd3f51240b08f4fa50d48eb0de5be2b5da4ed4b63ef104a8495d4c80faa'),
    'phalanx': ('b7d75412294377fc59d3d7b258f8de9d3a5f00d3059ff07ec8e4f861cb15dabd',
                '0e92763ab3e004d8875024d5243a8f2e6f334cd6fedb787b716108bb30f741f6'),
    'pivot-pawns': ('ddb6c07f82521991e80fc6d1f4dda025a78ac373f2fba1e31384aca6514abe6c',
                    '904829e82bfdb3dccbdea62dc9764a3c4d9da6720382ce91bfe59259247cdf85'),
    'proximity': ('f654b6e0deddd0f212dfc131cbe15c1f9a955e8190e8e6bb13b2de9fc4a5aec3',
                  'f3fe6a966278e54b45817878b51db9df72856e3b1b5564675c725b2bcd616f83'),
}


def digests(engine, kind: str) -> tuple[str, str]:
    names = play_game(engine, kind, "g1", seed=7, max_steps=STEPS)
    words, pixels = hashlib.sha256(), hashlib.sha256()
    counts = {"text/plain": 0, "image/png": 0}
    for msg in outbox(engine):
        if "welcome" in str(msg["Subject"]).lower():
            continue
        for part in msg.walk():
            if part.get_content_disposition() == "attachment":
                continue  # a file the mail carries (the end mail's record), not its words: its own tests hold it
            kind_of = part.get_content_type()
            counts[kind_of] = counts.get(kind_of, 0) + 1
            if kind_of == "text/plain":
                payload = part.get_payload(decode=True)
                assert payload.startswith(MARKED), payload[:80]  # every mail gm sends starts so
                words.update(str(msg["To"]).encode() + b"\0" + payload[len(MARKED):] + b"\0")
            elif kind_of == "image/png":
                image = Image.open(io.BytesIO(part.get_payload(decode=True)))
                pixels.update(f"{image.size}".encode() + image.convert("RGBA").tobytes())
    assert names and counts["text/plain"] >= STEPS and counts["image/png"] >= STEPS  # something was held
    return words.hexdigest(), pixels.hexdigest()


@pytest.mark.parametrize("kind", sorted(GOLDEN))
def test_reports_say_and_show_what_they_did_before(engine, kind):
    assert digests(engine, kind) == GOLDEN[kind]


def test_every_game_is_held():
    from games import registry

    assert sorted(GOLDEN) == sorted(registry.available())


if __name__ == "__main__":  # prints GOLDEN for the code as it is
    import tempfile
    from pathlib import Path

    from games import registry
    from gm.core.config import Config
    from gm.service.engine import Engine
    from gm.store import Store
    from support import Clock

    for kind in sorted(registry.available()):
        with tempfile.TemporaryDirectory() as tmp:
            config = Config(data_dir=Path(tmp) / "gm-data", address="gm@localhost")
            engine = Engine(Store(config.database), config, clock=Clock())
            print(f"    {kind!r}: {digests(engine, kind)!r},", file=sys.stdout)
            engine.store.close()
