"""Table: the game as it stands, read by every room above.

games loads and saves a game (its row, rules, state and seats) as a
GameView; deadlines knows the turn now open: where it started, who still
owes orders, its deadline and the absences that move it; gamerecord reads
a whole game as its record (JSON: what a viewer may see).  In: the store;
out: views, deadline rows and records.  It sends no mail and imports no other room.
"""
