"""Playing games between bots: the referee, and the faults it records when a bot fails."""
