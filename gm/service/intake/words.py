"""What gm tells the sender of a mail, written in templates/mail, not in the code.

A refusal is one macro of templates/mail/refusals.txt.j2: its lines joined
with a space make one message, which is both the reply's text and the mail's
detail in the log.  A body of its own is a template rendered as written.
"""

from __future__ import annotations

from gm.mail.redact import mask_text

REFUSALS = "mail/refusals.txt.j2"


def say(message: str, language: str = "en", **values: object) -> str:
    """The refusal ``message`` (a macro of refusals.txt.j2) with ``values``, as one line, in
    ``language`` (gm.service.context.reply_language: the sender's)."""
    from gm.present.templates import sentence  # Jinja, when something is said

    return sentence(REFUSALS, message, language, **values)


def body(template: str, language: str = "en", **values: object) -> str:
    """templates/mail/``template``.txt.j2 rendered exactly as written (not rewrapped), in ``language``."""
    from gm.present.templates import environment

    return environment(language=language).get_template(f"mail/{template}.txt.j2").render(**values)


def shown(lines: list[str], more: str, most: int = 10, width: int = 60, language: str = "en") -> list[str]:
    """The first ``most`` of ``lines``, each cut to ``width``, then how many more (``more``)."""
    kept = [mask_text(line if len(line) <= width else line[:width - 3] + "...") for line in lines[:most]]
    if len(lines) > most:
        kept.append(say("more_lines", language, count=len(lines) - most, what=more))
    return kept
