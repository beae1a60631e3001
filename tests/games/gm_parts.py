"""The few service functions the game tests use: the report renderer and the duration reader."""

from __future__ import annotations

from gm.core.times import parse_duration
from gm.present.reports import ReportInput, render_report

__all__ = ["ReportInput", "parse_duration", "render_report"]
