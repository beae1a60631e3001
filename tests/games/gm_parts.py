"""The few service functions the game tests use, wherever the service keeps them.

The service's modules are being moved (gm.render -> gm.present.reports,
gm.deadlines -> gm.core.times / gm.service.deadlines); the game tests only
need the report renderer and the deadline reader, so they import them here.
"""

from __future__ import annotations

try:
    from gm.present.reports import ReportInput, render_report
except ImportError:  # before the move
    from gm.render import ReportInput, render_report

try:
    from gm.core.times import parse_duration
except ImportError:
    try:
        from gm.service.deadlines import parse_duration
    except ImportError:  # before the move
        from gm.deadlines import parse_duration

__all__ = ["ReportInput", "parse_duration", "render_report"]
