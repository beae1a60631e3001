"""gm.present.templates: templates compiled once, kept across processes, never at the
cost of a report."""

from __future__ import annotations

import jinja2

from gm.present import templates


def fresh_environment(directory, **options) -> jinja2.Environment:
    cache = templates.TemplateCache(directory=str(directory), pattern="__t_%s.cache")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(templates.template_dir()), bytecode_cache=cache,
                             extensions=["jinja2.ext.i18n"], **options)
    env.install_null_translations(newstyle=True)  # the templates' _() as gm's English environment has it
    return env


def test_a_second_process_reads_the_compiled_template_instead_of_compiling(tmp_path):
    first = fresh_environment(tmp_path).get_template("mail/notice.txt.j2")
    assert list(tmp_path.iterdir())  # written
    second = fresh_environment(tmp_path)

    def no_compile(*args, **kwargs):
        raise AssertionError("compiled again")

    second.compile = no_compile
    again = second.get_template("mail/notice.txt.j2")
    context = dict(game_id="g1", turn=3, lines=["a line"], address="gm@localhost")
    assert again.render(**context) == first.render(**context)


def test_the_text_and_html_environments_keep_apart_entries():
    text, html = templates.environment(), templates.environment(html=True)
    assert text.bytecode_cache is not None and html.bytecode_cache is not None
    assert text.bytecode_cache.pattern != html.bytecode_cache.pattern


def test_a_cache_that_cannot_be_written_changes_nothing_but_speed(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    env = fresh_environment(folder)
    folder.rmdir()  # gone: every write fails
    context = dict(game_id="g1", turn=3, lines=["a line"], address="gm@localhost")
    assert "a line" in env.get_template("mail/notice.txt.j2").render(**context)
