"""MY DATA: everything gm keeps about one address, as JSON, mailed to that address alone.

A seat (its password or reply token) gets it at once, mailed to the address the seat is
registered to, whoever sent the mail; any other mail asks as OBSERVE does (gm.service.people.optin,
which calls data_request and send; gm.service.people.mailcommands chooses which way):
a code goes to its From address, within the confirmation caps, and the data goes there once that
address confirms, so a forged From makes gm mail only the address forged, and only its own data.
The rows are the store's catalogue's (gm.store.addressdata); what leaves is chosen here: never a
password, token or code (nor their hashes), never another address (hidden in free text), never a
report or press received (another seat's words): only the press this address sent.
``gm data ADDRESS`` (gm.cli.datacmd) prints the same object.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any, Iterable

from games.text import Text
from gm.core.addresses import normal
from gm.core.model import GameView, ServiceError
from gm.mail.inbound import Inbound
from gm.mail.outbound import Attachment
from gm.mail.redact import mask_header, mask_text
from gm.service.context import Context
from gm.store import Store
from gm.store.addressdata import AddressData, Rows
from gm.store.mailboxhash import mailbox_hash

FILE_NAME = "my-data.json"
MOST_BYTES = 300_000  # the JSON a mail carries (base64 makes it 4/3 of this: within a mail's cap)
ANOTHER = "[another address]"
SENT_KEPT_WHOLE = "a day"  # how long a sent mail's stored copy is whole (retention.KEEP_PICTURES)
STOPS = frozenset(" \t\r\n<>()[]{},;:\"'=")  # what ends an address quoted in free text
TIMES = frozenset({"at", "created", "since", "until", "expires", "received", "sent", "made", "updated", "held",
                   "due", "last_seen", "last_told", "last_probe", "start", "end", "confirmed"})

# section -> (its table, the columns shown): rows about the address or its seats, as stored
PLAIN_SECTIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "observing": ("observers", ("game_id", "approved", "since")),
    "games_opened": ("open_games", ("game_id", "seats", "min_seats")),
    "settings_for_every_seat": ("address_settings", ("format", "timezone", "calendar", "updated")),
    "mail_pace_for_every_seat": ("address_paces", ("mail_pace", "mail_at")),
    "daily_digest": ("digests", ("due",)),
    "delivery_state": ("addresses", ("state", "since", "reason", "last_probe")),
    "deliveries_and_bounces": ("delivery_events", ("at", "permanent", "source", "words", "settled")),
    "mail_gm_sent_you": ("outbox", ("created", "kind", "game_id", "turn", "subject", "status", "sent", "attempts",
                                    "last_error")),
    "orders": ("orders", ("game_id", "turn", "player", "action", "text", "canonical", "accepted", "error",
                          "origin", "at")),
    "conditional_lines": ("conditional_lines", ("game_id", "player", "written", "made")),
    "absences": ("absences", ("game_id", "player", "start", "end", "created")),
    "draw_proposals": ("draw_proposals", ("game_id", "player", "turn", "made")),
    "takebacks": ("takebacks", ("game_id", "player", "seq", "answer", "made")),
    "seat_mail_paces": ("seat_paces", ("game_id", "player", "mail_pace", "mail_at")),
    "calendar_events": ("calendar_events", ("game_id", "player", "turn", "sequence", "due", "cancelled", "updated")),
    "letters_held_for_later": ("held_letters", ("game_id", "player", "turn", "held")),
    "away_replies_seen": ("away_notices", ("game_id", "player", "last_seen", "subject", "last_told")),
    "deadlines_held_for_bounces": ("bounce_holds", ("game_id", "player", "start_seq", "seconds", "at")),
    "mail_threads": ("mail_threads", ("game_id", "made")),
}


def iso(at: float | None) -> str | None:
    return None if at is None else datetime.fromtimestamp(at, timezone.utc).isoformat(timespec="seconds")


def others_hidden(text: str, shown: Iterable[str]) -> str:
    """``text`` with every address in it but those ``shown`` (normal form) written ANOTHER; one
    pass, each character looked at a bounded number of times."""
    allowed = set(shown)
    out, start, n = [], 0, len(text)
    at = text.find("@")
    while at != -1:
        left = at
        while left > start and text[left - 1] not in STOPS:
            left -= 1
        right = at + 1
        while right < n and text[right] not in STOPS:
            right += 1
        word = text[left:right].rstrip(".")
        if left < at < left + len(word) - 1 and normal(word) not in allowed:
            out += [text[start:left], ANOTHER, text[left + len(word):right]]
        else:
            out.append(text[start:right])
        start = right
        at = text.find("@", right)
    out.append(text[start:])
    return "".join(out)


def shown_value(column: str, value: Any, shown: Iterable[str]) -> Any:
    """A stored value as the JSON shows it: a time in ISO 8601 (UTC), a text with secrets masked
    and other addresses hidden."""
    if column in TIMES and isinstance(value, (int, float)):
        return iso(value)
    if isinstance(value, (bytes, memoryview)):
        value = bytes(value).decode("utf-8", "replace")
    if isinstance(value, str):
        return others_hidden(mask_text(value), shown)
    return value


def picked(rows: list[dict[str, Any]], columns: tuple[str, ...], shown: Iterable[str]) -> list[dict[str, Any]]:
    return [{c: shown_value(c, row.get(c), shown) for c in columns} for row in rows]


def whose(value: str, address: str, hashed: str = "") -> str:
    """Whom a stored sender or recipient is, without naming anyone else (``hashed``: the address's
    mailbox hash, as caps and locks keep a sender: gm.store.mailboxhash)."""
    if value == address or (hashed and value == hashed):
        return "this address"
    return "the seat" if not value else "another address"


def seats_section(store: Store, rows: Rows) -> list[dict[str, Any]]:
    """Each seat the address holds: its game, name, whether it still plays, its settings."""
    seats = []
    for row in rows.get("players", []):
        game = store.games.game(row["game_id"])
        seats.append({"game_id": row["game_id"], "kind": game.kind if game else None,
                      "game_status": game.status if game else None, "seat": row["name"],
                      "seat_number": row["seat"], "status": "playing" if row["active"] else "left",
                      "display_name": row["display_name"], "format": row["format"],
                      "timezone": row["timezone"], "calendar": row["calendar"]})
    return seats


def press_sent(store: Store, seats: list[tuple[str, str]], shown: Iterable[str]) -> list[dict[str, Any]]:
    """The press each seat of the address sent, with its words: the archive's copy of each press
    paired, in order, with the history line naming its sender (the press path writes both)."""
    sent = []
    for game_id in sorted({game for game, _ in seats}):
        names = {name for game, name in seats if game == game_id}
        logged = [h for h in store.history.history_of(game_id) if h.action == "press"]
        copies = store.reports.gm_press(game_id)
        paired = len(logged) == len(copies)
        for i, line in enumerate(logged):
            if line.actor in names:
                sent.append({"game_id": game_id, "turn": line.turn, "seat": line.actor, "at": iso(line.at),
                             "to": shown_value("detail", line.detail, shown),
                             "text": shown_value("body", copies[i].body, shown) if paired else None})
    return sent


def mail_sent(rows: Rows, shown: Iterable[str]) -> list[dict[str, Any]]:
    """Each mail the address sent as gm keeps it (its passwords, codes and tokens masked)."""
    return [{"received": iso(row["received"]), "game_id": row["game_id"], "outcome": row["outcome"],
             "subject": mask_header(shown_value("subject", row["subject"] or "", shown)),
             "detail": shown_value("detail", row["detail"], shown),
             "kept_copy": shown_value("raw", row["raw"], shown)} for row in rows.get("messages", [])]


def credentials_section(rows: Rows, address: str, now: float, hashed: str = "") -> dict[str, Any]:
    """Wrong passwords, locks and codes about the address or its seats: never a code or a hash
    (``hashed``: the address's mailbox hash, as a sender's are kept)."""
    failures = [{"game_id": r["game_id"], "seat": r["player"] or None, "at": iso(r["at"]),
                 "from": whose(r["sender"], address, hashed)} for r in rows.get("credential_failures", [])]
    locks = [{"game_id": r["game_id"] or None, "seat": r["player"] or None, "since": iso(r["since"]),
              "until": iso(r["until"]), "locked": whose(r["sender"], address, hashed)}
             for r in rows.get("credential_locks", [])]
    codes = [{"purpose": r["purpose"], "game_id": r["game_id"], "seat": r["player"], "created": iso(r["created"]),
              "expires": iso(r["expires"]), "sent_to": whose(r["new_email"], address),
              "state": "used" if r["used"] else "expired" if r["expires"] < now else "pending", "ended": r["ended"]}
             for r in rows.get("address_codes", [])]
    requests = [{"asked": r["actions"].split("\n") if r["actions"] else [], "created": iso(r["created"]),
                 "expires": iso(r["expires"]), "confirmed": iso(r["confirmed"]),
                 "state": "confirmed" if r["confirmed"] else "expired" if r["expires"] < now else "pending"}
                for r in rows.get("pending_requests", []) if r["address"] == address]
    return {"wrong_passwords": failures, "locks": locks, "seat_codes": codes, "requests_to_confirm": requests}


def kept(config: Any) -> list[dict[str, str]]:
    """What gm keeps, and for how long (the sent mail's: gm.service.records.retention, a layer
    above, whose KEEP_PICTURES tests/service/people/test_my_data.py holds to SENT_KEPT_WHOLE)."""
    from gm.service.people import credentials

    return [
        {"what": "your seats, settings, orders, history and press",
         "how_long": "as long as the game is kept: a game replays from its orders (gm verify)"},
        {"what": "mail you sent", "how_long": "kept, its passwords, codes and reply tokens masked, as long as "
                                              "the store keeps it (no time limit)"},
        {"what": "mail gm sent you", "how_long": f"whole for {SENT_KEPT_WHOLE}, then its "
                                                 "headers and text; mail with a password or code (and this "
                                                 "one) is blanked once sent"},
        {"what": "deliveries, bounces, wrong passwords and locks", "how_long": "kept (no time limit): they "
                                                                              "keep abuse limits"},
        {"what": "codes", "how_long": f"never kept as such (a keyed digest); a code works {credentials.ADDRESS_DAYS} "
                                      f"days ({credentials.REVERT_DAYS} to undo a change of address)"},
        {"what": "log lines", "how_long": f"in {config.log_file or 'the log'} as the operator keeps it"},
        {"what": "backups", "how_long": "as the operator keeps them; gm cannot reach them"},
        {"what": "to have it erased", "how_long": "ask the game master"},
    ]


def gather(store: Store, config: Any, address: str, now: float) -> dict[str, Any]:
    """Everything the store keeps about ``address`` (as normal() gives it), as one JSON object."""
    address = normal(address) or address.strip().lower()
    rows = AddressData(store).rows_naming(address)
    seats = [(r["game_id"], r["name"]) for r in rows.get("players", [])]
    names = {(game, name) for game, name in seats}
    rows["away_notices"] = [r for r in rows.get("away_notices", []) if (r["game_id"], r["player"]) in names]
    shown = (address, normal(config.address) or "")
    data: dict[str, Any] = {"address": address, "made": iso(now), "gm": config.address,
                            "seats": seats_section(store, rows)}
    for section, (table, columns) in PLAIN_SECTIONS.items():
        data[section] = picked(rows.get(table, []), columns, shown)
    data["history"] = [{"game_id": r["game_id"], "turn": r["turn"],
                        "actor": "this address" if r["actor"] == address else r["actor"], "action": r["action"],
                        "detail": shown_value("detail", r["detail"], shown), "at": iso(r["at"])}
                       for r in rows.get("history", [])]
    data["press_sent"] = press_sent(store, seats, shown)
    data["mail_sent"] = mail_sent(rows, shown)
    data.update(credentials_section(rows, address, now, mailbox_hash(store, address)))
    data["public_players"] = public_section(store, address)
    data["kept"] = kept(config)
    data["not_included"] = ("reports and press you were sent (HISTORY mails them again), passwords, reply "
                            "tokens and codes (never kept as such), and anything about another address")
    return data


def public_section(store: Store, address: str) -> list[dict[str, Any]]:
    """The address's public players (a seat name's, or every seat's once linked): the public
    name, each rating, every rated result and every tournament entry, which the store keeps by
    the player's opaque id rather than by the address."""
    players = store.community.players_of(address)
    if not players:
        return []
    entries = {(e.tournament_id, e.player_id): e for t in store.tournaments.every_tournament()
               for e in store.tournaments.entries(t.id)}
    kinds = store.community.kinds_rated()
    out = []
    for player in players:
        ratings = [store.community.rating(kind, player.player_id) for kind in kinds]
        out.append({
            "public_name": player.name, "seats": player.seat_name or "all seats of this address",
            "ratings": [{"kind": r.kind, "mu": r.mu, "sigma": r.sigma, "games": r.games,
                         "last_game": r.last_game} for r in ratings if r is not None],
            "rated_results": [{"game_id": r.game_id, "kind": r.kind, "seat": r.seat, "rank": r.rank,
                               "ended": iso(r.ended), "mu": r.mu, "sigma": r.sigma}
                              for r in store.community.results_of(player.player_id)],
            "tournaments": [{"tournament": t, "seat_name": e.seat_name, "status": e.status,
                             "entered": iso(e.entered)} for (t, pid), e in entries.items()
                            if pid == player.player_id]})
    return out


def encoded(data: dict[str, Any]) -> bytes:
    """The JSON a mail carries: whole, or without the kept copies of mail sent when too long."""
    text = json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8")
    if len(text) <= MOST_BYTES:
        return text
    for mail in data["mail_sent"]:
        mail["kept_copy"] = None
    data["left_out"] = "the kept copies of mail you sent (too long for one mail: the game master's gm data has them)"
    return json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8")


def send(ctx: Context, address: str) -> str:
    """Mail ``address`` (and only it) everything gm keeps about it; what the asker is told."""
    return sent_text(deliver(ctx, address), Text("the address"))


def deliver(ctx: Context, address: str) -> bool:
    """Mail ``address`` (and only it) everything gm keeps about it; False: not mailed (the caps)."""
    data = gather(ctx.store, ctx.config, address, ctx.clock())
    body = ctx.outbox.render("answer", game_id=None, lines=[
        Text("Attached ({file}) is everything gm keeps about {address}: {seats} seats, {history} history "
             "lines, {sent} mails you sent, {received} mails gm sent you.", file=FILE_NAME,
             address=data["address"], seats=len(data["seats"]), history=len(data["history"]),
             sent=len(data["mail_sent"]), received=len(data["mail_gm_sent_you"])), "",
        Text("Its \"kept\" part says how long gm keeps each. Passwords, codes and other people's data are "
             "never in it. Ask the game master to have it erased.")])
    oid = ctx.outbox.queue(data["address"], Text("Your data at gm"), body, kind="data", secret=True,
                           files=(Attachment(FILE_NAME, "application/json", encoded(data)),))
    return oid is not None


def sent_text(sent: bool, where: str) -> str:
    """What the asker of MY DATA is told: the data went to ``where`` (words), or was not mailed."""
    if not sent:
        return Text("MY DATA: not mailed: this mail made gm write to that address as often as one mail may.")
    return Text("MY DATA: everything gm keeps about {where} is mailed to it, in a mail of its own.", where=where)


# --- the mail command ---------------------------------------------------------------------
def data_request(ctx: Context, args: str, sender: str) -> str:
    """MY DATA as a request to confirm (optin.REQUESTS): its line."""
    if args.strip().upper() not in ("", "DATA"):
        raise ServiceError(Text("MY DATA takes no more words."))
    return "MY DATA"


def for_seat(ctx: Context, view: GameView | None, player: Any, args: str, inbound: Inbound) -> None:
    """MY DATA from a seat (its password or reply token): mailed at once to the address the seat is
    registered to, whoever sent the mail; the sender is told where it went, not the address."""
    told = sent_text(deliver(ctx, player.email), Text("the address your seat is registered to"))
    ctx.outbox.reply(inbound, view, Text("My data"), ctx.outbox.render(
        "answer", game_id=view.id if view else None, lines=[told]), kind="reply")
