"""gm.core.value: a value class behaves as the dataclass it stands for, without dataclasses loaded."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys

import pytest

from gm.core.value import changed, field, valueclass


@valueclass(frozen=True)
class Point:
    x: int
    tags: tuple = ()
    seen: list = field(default_factory=list, compare=False)


@valueclass
class Counter:
    start: int = 0
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.doubled = self.start * 2


@valueclass
class Named(Counter):
    name: str = ""


def test_fields_take_values_by_place_or_name_and_defaults_fresh_each_time():
    assert Point(1).tags == () and Point(x=1, tags=("a",)).tags == ("a",)
    first, second = Counter(), Counter()
    first.notes.append("x")
    assert second.notes == []


def test_the_constructor_refuses_what_a_dataclass_refuses():
    for wrong in (lambda: Point(), lambda: Point(1, x=2), lambda: Point(1, nope=2), lambda: Point(1, (), [], 4)):
        with pytest.raises(TypeError):
            wrong()


def test_post_init_runs_and_a_subclass_extends_the_fields():
    assert Counter(3).doubled == 6
    made = Named(2, ["n"], "ada")
    assert (made.start, made.notes, made.name, made.doubled) == (2, ["n"], "ada", 4)


def test_repr_equality_and_hash_as_a_dataclass_gives_them():
    assert repr(Point(1, ("a",))) == "Point(x=1, tags=('a',), seen=[])"
    assert Point(1, seen=[1]) == Point(1, seen=[2])  # compare=False
    assert Point(1) != Point(2) and Counter(1) != Point(1)
    assert hash(Point(1)) == hash(Point(1, seen=[5]))
    assert Counter.__hash__ is None


def test_a_frozen_value_refuses_assignment_as_a_frozen_dataclass_does():
    point = Point(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        del point.x


def test_changed_is_replace():
    assert changed(Point(1, ("a",)), x=5) == Point(5, ("a",))
    assert changed(Counter(1), start=4).doubled == 8
    with pytest.raises(TypeError):
        changed(Point(1), y=2)


def test_a_value_pickles():
    assert pickle.loads(pickle.dumps(Named(1, [], "b"))) == Named(1, [], "b")


def test_the_value_classes_on_a_piped_mails_way_load_no_dataclasses():
    done = subprocess.run([sys.executable, "-c", "import sys, gm.mail.inbound, gm.service.intake.ingest; "
                           "print('dataclasses' in sys.modules)"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
