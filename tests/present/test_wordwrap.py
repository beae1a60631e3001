"""The fast wordwrap filter gives exactly Jinja's text (reports archived with one are verified
against the other by `gm verify`)."""

from __future__ import annotations

import jinja2.filters
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.present.templates import environment, wordwrap

WORD = st.text(alphabet=st.sampled_from("abcxyz0123-+ \u00a0\t\nKQ"), min_size=0, max_size=12)


@settings(max_examples=400, deadline=None)
@given(st.lists(WORD, max_size=60), st.integers(min_value=1, max_value=80),
       st.sampled_from([None, "\n  ", "\n    "]))
def test_the_filter_wraps_exactly_as_jinja_does(words, width, wrapstring):
    env = environment()
    text = " ".join(words)
    assert wordwrap(env, text, width, wrapstring=wrapstring) == \
        jinja2.filters.do_wordwrap(env, text, width, wrapstring=wrapstring)


def test_a_list_of_legal_orders_wraps_at_the_width_on_the_fast_path():
    env = environment()
    text = " ".join(f"a{i}xb{i}" for i in range(100))
    wrapped = wordwrap(env, text, 68, wrapstring="\n  ")
    assert wrapped == jinja2.filters.do_wordwrap(env, text, 68, wrapstring="\n  ")
    assert max(len(line) for line in wrapped.split("\n  ")) <= 68
    assert environment().filters["wordwrap"] is wordwrap
