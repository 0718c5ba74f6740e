"""What the commands do besides running tournament files: submitting a bot, duels (each a small
tournament in a temporary store), benchmarks."""
