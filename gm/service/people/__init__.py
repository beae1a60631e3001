"""People: who sits where, and what players do for themselves.

In: a sender's mail commands (mailcommands lists and dispatches them, and
playercommands does those with no room of their own: HELP, BOARD, LIST,
JOIN, OBSERVE, SET ..., RESIGN or CONCEDE, DRAW, PASSWORD RESET, CONFIRM ...),
and the password or reply token on every mail.  lobby opens games and fills
seats; seats and credentials are the one place a seat's owner, address,
password or tokens change (each change told to the registered address);
guessing checks passwords with lock-outs; draws keeps the draw proposals and
ends a game drawn when every player still in agrees (RULINGS G6); optin makes
a stranger's request wait for a confirmation from the address it names;
playersettings are a player's own choices.  Out: seats and settings in the
store, and answers through gm.service.outgoing.
"""
