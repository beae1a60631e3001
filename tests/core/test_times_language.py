"""Dates, times and spans in German and French (Babel's CLDR data), English exactly as before."""

from __future__ import annotations

import subprocess
import sys
from zoneinfo import ZoneInfo

from gm.core import times

AT = 1741370400.0  # Fri 2025-03-07 18:00 UTC
BERLIN = ZoneInfo("Europe/Berlin")


def test_english_is_as_before():
    assert times.format_stamp(AT) == "2025-03-07 18:00 UTC"
    assert times.format_stamp(AT, BERLIN) == "Fri 7 Mar 2025 19:00 CET (18:00 UTC)"
    assert times.format_due(AT, AT - 187200) == "Fri 2025-03-07 18:00 UTC (2 days 4 hours from now)"
    assert times.format_due(AT, AT + 700, BERLIN) == "Fri 7 Mar 19:00 CET (18:00 UTC), passed 11 minutes ago"
    assert times.format_span(20) == "less than a minute" == times.format_span(20, "en")


def test_german_dates_for_a_fixed_instant_and_zone():
    assert times.format_stamp(AT, language="de") == "07.03.2025 18:00 UTC"
    assert times.format_stamp(AT, BERLIN, language="de") == "Fr., 7. März 2025 19:00 CET (18:00 UTC)"
    assert times.format_due(AT, AT - 187200, language="de") == "Fr., 7. März 2025 18:00 UTC (noch 2 Tage 4 Stunden)"
    assert times.format_due(AT, AT + 700, BERLIN, "de") == \
        "Fr., 7. März 19:00 CET (18:00 UTC), um 11 Minuten überschritten"
    assert times.format_span(86400 + 3600, "de") == "1 Tag 1 Stunde"
    assert times.format_span(5, "de") == "weniger als eine Minute"


def test_french_dates_for_a_fixed_instant_and_zone():
    assert times.format_stamp(AT, language="fr") == "7 mars 2025 18:00 UTC"
    assert times.format_stamp(AT, ZoneInfo("Europe/Paris"), language="fr") == "ven. 7 mars 2025 19:00 CET (18:00 UTC)"
    assert times.format_due(AT, AT - 3 * 86400, language="fr") == "ven. 7 mars 2025 18:00 UTC (dans 3 jours)"
    assert times.format_due(AT, AT + 7200, language="fr") == "ven. 7 mars 2025 18:00 UTC (dépassée de 2 heures)"
    assert times.format_span(60, "fr") == "1 minute" and times.format_span(5, "fr") == "moins d'une minute"


def test_a_zone_without_offset_shows_one_time_in_each_language():
    assert times.format_stamp(AT, ZoneInfo("UTC"), language="de") == "Fr., 7. März 2025 18:00 UTC"


def test_english_loads_no_babel():
    code = ("import sys; from gm.core import times; times.format_due(1e9, 0); times.format_stamp(1e9);"
            "print('babel' in sys.modules or 'gm.core.i18n' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_a_moment_or_zone_gm_cannot_read_is_refused_in_each_language():
    import pytest

    from games.base import OptionError
    from gm.core.i18n import translate

    with pytest.raises(OptionError) as refused:
        times.parse_when("zzz", 0)
    assert str(refused.value).startswith("'zzz' is not a moment gm reads: write +48h (from now)")
    assert translate(refused.value.args[0], "de").startswith(
        "'zzz' ist kein Zeitpunkt, den gm versteht: schreib +48h (ab jetzt)")
    with pytest.raises(OptionError) as refused:
        times.zone_name("Mars/Base")
    assert translate(refused.value.args[0], "fr").startswith(
        "'Mars/Base' n'est pas un fuseau horaire que gm connaît. Écrivez")


def test_numbers_as_each_language_writes_them():
    from gm.core.i18n import format_number

    assert [format_number(1512.5, language) for language in ("en", "de", "fr")] == ["1512.5", "1.512,5", "1\u202f512,5"]
    assert format_number(7, "de") == "7" and format_number(0.25, "fr") == "0,25"


def test_an_option_refused_is_said_in_each_language():
    import pytest

    from games.base import OptionError
    from gm.core import options
    from gm.core.i18n import translate

    with pytest.raises(OptionError) as refused:
        options.check_settings({"press": "loud"})
    assert str(refused.value) == "option press: none, white or grey"
    assert translate(refused.value.args[0], "de") == "Option press: none, white oder grey"
    with pytest.raises(OptionError) as refused:
        options.check_settings({"late": "never"})
    assert translate(refused.value.args[0], "fr") == "option late : wait ou forfeit"
