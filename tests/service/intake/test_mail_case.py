"""A mail is one case: what it gathers while it is judged is its own, and is dropped with it.

Two mails in a row cannot mix their answers, even when the first raises midway; the service's
Context and Outbox keep nothing of a mail once it is judged; judging is one list of named steps.
"""

from __future__ import annotations

from gm.service.intake import judging
from gm.service.intake.case import MailCase, read
from gm.service.outgoing.outbox import PART_RULE
from gm.service.play import press
from support import body, last_outbox_id, order_mail, outbox

ADA, BOB = "ada@example.org", "bob@example.org"
PER_MAIL = {"answers", "asked", "released", "_pending"}


def test_judging_is_one_ordered_list_of_named_steps():
    assert [step.__name__ for step in judging.STEPS] == [
        "refuse_robots", "cap_size", "route_and_lock", "find_game", "time_first", "authenticate",
        "run_commands", "send_press", "judge_orders", "reply"]


def test_a_mail_that_raises_midway_leaves_no_answer_to_the_next(engine, nb_game, monkeypatch):
    service, outbox_vars = dict(vars(engine)), dict(vars(engine.outbox))

    def broken(*args, **kwargs):
        raise RuntimeError("press broke")

    monkeypatch.setattr(press, "send_all", broken)  # after BOARD has gathered ada's answer
    since = last_outbox_id(engine)
    raw = order_mail(ADA, "BOARD\nPRESS TO bob\nHello.\nENDPRESS", game_id="nb1", password=nb_game["ada"])
    assert engine.ingest(raw).outcome == "error"
    assert outbox(engine, since) == []  # its answers went with its transaction
    monkeypatch.undo()

    outcome = engine.ingest(order_mail(BOB, "BOARD", game_id="nb1", password=nb_game["bob"]))
    assert outcome.outcome == "help"
    (reply,) = outbox(engine, since)
    assert reply["To"] == BOB and PART_RULE.strip() not in body(reply)  # bob's one answer, alone
    assert vars(engine) == service and vars(engine.outbox) == outbox_vars
    assert not PER_MAIL & (set(vars(engine)) | set(vars(engine.outbox)))
    assert engine.outbox.answers is None


def test_two_cases_open_at_once_gather_their_own_answers(engine, nb_game):
    raws = [order_mail(sender, "HELP") for sender in (ADA, BOB)]
    first, second = (MailCase.open(engine, read(engine, raw), row, engine.clock())
                     for row, raw in enumerate(raws, 1))
    for case in (second, first):
        case.ctx.outbox.reply(case.inbound, None, case.inbound.sender, "text\n", kind="help")
    assert [part.label for part in first.answers.parts] == [ADA]
    assert [part.label for part in second.answers.parts] == [BOB]
    assert first.ctx.outbox is not second.ctx.outbox and first.service is second.service is engine
    assert engine.outbox.answers is None and not PER_MAIL & set(vars(engine))
