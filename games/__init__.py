"""Rule modules for gm: pure game logic, no mail, storage or templates."""
