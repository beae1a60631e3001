"""The schema, as its ordered steps: one module a step, each saying what it does.

A database is at step N when it ran steps 1..N (gm.store.migrations).  To change the schema, add
a module here and append it to STEPS; never edit a step that has shipped: databases in the field
ran exactly its SQL, and SQLite keeps the text in sqlite_master.  A step's ``postgresql`` names
the same changes in terms of gm.store.tables, compiled by gm.store.pgsteps when the step runs;
tests/store/test_pg_steps.py holds them, after every step, to the DDL PostgreSQL stores ran.  A
Python step writes portable SQL (``:name`` parameters and a dict).
"""

from __future__ import annotations

from gm.store.changes import Step
from gm.store.steps import (
    s01_games,
    s02_deadlines,
    s03_timers,
    s04_player_format,
    s05_self_service,
    s06_delivery,
    s07_outbox_trimmed,
    s08_outbox_secret,
    s09_credentials,
    s10_opt_in,
    s11_press_audience,
    s12_secrets_at_rest,
    s13_holds,
    s14_outages,
    s15_fuzzy_borders_empty_turns,
    s16_draw_proposals,
    s17_address_settings,
    s18_display_name,
    s19_report_digest,
    s20_inbox_backlog,
    s21_state_packing,
    s22_report_packing,
    s23_takeovers,
    s24_player_settings_repair,
    s25_outbox_notify,
    s26_conditional_lines,
    s27_takebacks,
    s28_mail_threads,
    s29_mail_pace,
    s30_calendar_events,
    s31_away_notices,
    s32_mailbox_hashes,
    s33_community,
    s34_language,
)

STEPS: list[Step] = [
    s01_games.STEP,
    s02_deadlines.STEP,
    s03_timers.STEP,
    s04_player_format.STEP,
    s05_self_service.STEP,
    s06_delivery.STEP,
    s07_outbox_trimmed.STEP,
    s08_outbox_secret.STEP,
    s09_credentials.STEP,
    s10_opt_in.STEP,
    s11_press_audience.STEP,
    s12_secrets_at_rest.STEP,
    s13_holds.STEP,
    s14_outages.STEP,
    s15_fuzzy_borders_empty_turns.STEP,
    s16_draw_proposals.STEP,
    s17_address_settings.STEP,
    s18_display_name.STEP,
    s19_report_digest.STEP,
    s20_inbox_backlog.STEP,
    s21_state_packing.STEP,
    s22_report_packing.STEP,
    s23_takeovers.STEP,
    s24_player_settings_repair.STEP,
    s25_outbox_notify.STEP,
    s26_conditional_lines.STEP,
    s27_takebacks.STEP,
    s28_mail_threads.STEP,
    s29_mail_pace.STEP,
    s30_calendar_events.STEP,
    s31_away_notices.STEP,
    s32_mailbox_hashes.STEP,
    s33_community.STEP,
    s34_language.STEP,
]
