"""Play: where commands change games.

In: a player's orders (from intake) or a GM's command (from the command
line).  timers.settle brings a game's clock up to now first (RULINGS G4);
turns judges orders with the game's rules and closes turns; gmturns is the
GM's hand in a turn (gm order, gm process); lifecycle and positions are the
GM's overrides (pause, end, eject, rollback, edit...), on overrides' common
ground (who, why, history) and roster's checks of names; press carries the
players' messages.  Out: new states in the store, and the reports and
notices they cause, handed to gm.service.outgoing.
"""
