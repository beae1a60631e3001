"""SQLite storage: games, players, states, orders, mail, outbox, reports, service records.

    gm.store.connection  the Store class: connection, PRAGMAs, write()
    gm.store.schema      every table, as the ordered migration steps
    gm.store.migrations  PRAGMA user_version; runs the missing steps on open
    gm.store.games       games, players, history        (mixed into Store)
    gm.store.turns       states, orders                  (mixed into Store)
    gm.store.mail        messages, outbox, reports       (mixed into Store)
    gm.store.service     settings, deadlines, absences, overrides, results
    gm.store.selfservice open games, observers, address codes, token generations
    gm.store.delivery    delivery events, each address's delivery state (bounces)
"""

from gm.store.errors import MigrationError, SchemaTooNew, StoreError
from gm.store.connection import Store

__all__ = ["MigrationError", "SchemaTooNew", "Store", "StoreError"]
