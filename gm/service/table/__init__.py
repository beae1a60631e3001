"""Table: the game as it stands, read by every room above.

games loads and saves a game (its row, rules, state and seats) as a
GameView; deadlines knows the turn now open: where it started, who still
owes orders, its deadline and the absences that move it.  In: the store;
out: views and deadline rows.  It sends no mail and imports no other room.
"""
