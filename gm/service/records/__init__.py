"""Records: what stays once the mail is sent.

In: a game's stored states, orders and archived reports.  audit replays a
game from its seed and orders (RULINGS G1, `gm verify`), writes its history
and the archive's data; retention trims stored mail to its words; storecopy
copies a whole store from one back end to the other.  Out: reports of
differences, archive pages' data, a trimmed or copied store; recordimport
replays a game record (gm.service.table.gamerecord) into a new game.
"""
