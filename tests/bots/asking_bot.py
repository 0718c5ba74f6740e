"""A bot that plays only what it builds itself from its observation's answers.

Every decision it checks that each listed legal action is legal by ``obs.is_legal`` (raising,
which the referee records as a fault, if not), then lays cards one at a time, each chosen at
random from ``obs.next_cards`` (a joker in a role from ``obs.joker_roles``), stops at random,
and plays the result when ``obs.is_legal`` accepts it (with a suit call if it needs one). A
wrong answer from the observation shows as an ILLEGAL or INVALID fault.
"""

import random


class Bot:
    """Builds its plays card by card from the observation's answers."""

    def __init__(self):
        self.rng = random.Random(0)

    def on_game_start(self, info):
        """Seed the choices from the referee's seed."""
        self.rng = random.Random(info["seed"])

    def act(self, obs):
        """A play of its own making when it finds a legal one, else the first listed action."""
        legal = obs.legal_actions()
        for action in legal:
            if not obs.is_legal(action):
                raise AssertionError(f"{action} is listed, yet: {obs.illegal_reason(action)}")
        for _ in range(6):
            text = self.build(obs)
            if text is not None:
                return text
        return legal[0]

    def build(self, obs):
        """One random play built from next_cards, as text, if it is legal."""
        laid, roles = [], []
        while True:
            choices = obs.next_cards(laid, roles)
            if not choices or (laid and self.rng.random() < 0.4):
                break
            card = self.rng.choice(choices)
            role = card
            if card.is_joker:
                options = obs.joker_roles(laid, roles)
                if not options:
                    break
                role = self.rng.choice(options)
            laid.append(card)
            roles.append(role)
        if not laid:
            return None
        text = " ".join(f"{c}:{r}" if c.is_joker else str(c) for c, r in zip(laid, roles))
        for candidate in (text, text + "=" + "CDHS"[self.rng.randrange(4)]):
            if obs.is_legal(candidate):
                return candidate
        return None
