"""What gm tells the sender of a mail, written in templates/mail, not in the code.

A refusal is one macro of templates/mail/refusals.txt.j2: its lines joined
with a space make one message, which is both the reply's text and the mail's
detail in the log.  A body of its own is a template rendered as written.
"""

from __future__ import annotations

from gm.mail.redact import mask_text

REFUSALS = "mail/refusals.txt.j2"


def say(message: str, **values: object) -> str:
    """The refusal ``message`` (a macro of refusals.txt.j2) with ``values``, as one line."""
    from gm.present.templates import sentence  # Jinja, when something is said

    return sentence(REFUSALS, message, **values)


def body(template: str, **values: object) -> str:
    """templates/mail/``template``.txt.j2 rendered exactly as written (not rewrapped)."""
    from gm.present.templates import environment

    return environment().get_template(f"mail/{template}.txt.j2").render(**values)


def shown(lines: list[str], more: str, most: int = 10, width: int = 60) -> list[str]:
    """The first ``most`` of ``lines``, each cut to ``width``, then how many more (``more``)."""
    kept = [mask_text(line if len(line) <= width else line[:width - 3] + "...") for line in lines[:most]]
    if len(lines) > most:
        kept.append(say("more_lines", count=len(lines) - most, what=more))
    return kept
