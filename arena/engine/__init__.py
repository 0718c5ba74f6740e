"""The rules engine: cards and actions in notation, rule sets, legality, the game, matches,
what one seat may see, and position files. It imports nothing above it (stdlib and PyYAML only)."""
