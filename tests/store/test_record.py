"""Records, the typed rows repositories give: fields in order, defaults, frozen values, rows read by name."""

from __future__ import annotations

import copy
import pickle
import sqlite3

import pytest

from gm.store.record import Record, record


@record
class Base(Record):
    id: int
    name: str
    score: float = 0.0


@record
class Wider(Base):
    note: str | None = None


def a_row(sql: str) -> sqlite3.Row:
    db = sqlite3.connect(":memory:")
    db.row_factory = sqlite3.Row
    return db.execute(sql).fetchone()


def test_fields_are_the_bases_then_the_own_in_order_and_a_value_in_the_body_is_a_default():
    assert Base.columns == ("id", "name", "score")
    assert Wider.columns == ("id", "name", "score", "note")
    assert Wider.required == {"id", "name"}
    assert Wider(1, "ada") == Wider(id=1, name="ada", score=0.0, note=None)


def test_a_record_takes_its_fields_once_each_and_every_required_one():
    with pytest.raises(TypeError, match="missing name"):
        Base(1)
    with pytest.raises(TypeError, match="unexpected"):
        Base(1, "ada", colour="red")
    with pytest.raises(TypeError, match="repeated"):
        Base(1, "ada", id=2)
    with pytest.raises(TypeError, match="takes 3"):
        Base(1, "ada", 2.0, "extra")


def test_a_field_without_a_default_may_not_follow_one_with_a_default():
    with pytest.raises(TypeError, match="without a default"):
        @record
        class Wrong(Base):
            late: int


def test_a_record_is_a_frozen_slotted_value():
    game = Base(1, "ada", 2.5)
    with pytest.raises(AttributeError, match="a record is a value"):
        game.name = "bob"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del game.name  # type: ignore[misc]
    assert not hasattr(game, "__dict__")
    assert game == Base(1, "ada", 2.5) and hash(game) == hash(Base(1, "ada", 2.5))
    assert game != Base(1, "ada", 3.0) and game != Wider(1, "ada", 2.5)
    assert repr(game) == "Base(id=1, name='ada', score=2.5)"
    assert copy.deepcopy(game) == game
    assert pickle.loads(pickle.dumps(Wider(2, "bob", note="x"))) == Wider(2, "bob", note="x")


def test_changed_writes_through_as_a_read_would_give_it_back():
    game = Base(1, "ada", 2.5)
    later = game.changed(score=3)
    assert later == Base(1, "ada", 3.0) and type(later.score) is float and game.score == 2.5
    with pytest.raises(TypeError):
        game.changed(colour="red")


def test_of_reads_by_column_name_and_a_field_with_a_default_may_be_absent():
    assert Wider.of(a_row("SELECT 'x' AS note, 7 AS id, 'ada' AS name, 1.5 AS score")) == Wider(7, "ada", 1.5, "x")
    assert Wider.of(a_row("SELECT 'ada' AS name, 7 AS id")) == Wider(7, "ada")
    assert Wider.maybe(None) is None
    with pytest.raises(TypeError, match="missing name"):
        Wider.of(a_row("SELECT 7 AS id, 1.0 AS score"))


def test_a_record_still_reads_as_a_row_for_scripts():
    game = Wider(7, "ada", 1.5, "x")
    assert game["NAME"] == "ada" and game[0] == 7 and list(game) == [7, "ada", 1.5, "x"] and len(game) == 4
    assert game.keys() == ["id", "name", "score", "note"] and game.as_dict()["note"] == "x"
    with pytest.raises(IndexError):
        game["colour"]
