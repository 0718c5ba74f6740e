"""What the commands do besides tournaments: submitting a bot, duels, benchmarks."""
