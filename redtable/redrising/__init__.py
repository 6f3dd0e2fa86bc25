"""Red Rising (Stonemaier Games, 2-6 players)."""
