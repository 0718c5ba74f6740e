"""Class 3: memory kept from an earlier game.

Keeps its first hand of every game in a module variable, a class attribute, an attribute of
``builtins``, a fake entry of ``sys.modules``, the environment and a marked dictionary only the
garbage collector still knows; at the start of every game it looks for any of them. Anything
found (necessarily from an earlier game) is a LEAK: the tournament replays a deal with the
seats rotated in consecutive games, so a remembered hand names the opponent's.
"""

import builtins
import gc
import os
import sys
import types

CONFIG: dict = {}  # filled in by the test: {"marker": text}
MARK = CONFIG.get("marker", "mem-marker")
_HANDS: list = []   # first hands of earlier games


class Bot:
    hands: list = []  # class attribute: survives instances

    def on_game_start(self, info: dict) -> None:
        self.first = True
        found = []
        if _HANDS:
            found.append(f"module variable holds {_HANDS[-1]}")
        if Bot.hands:
            found.append(f"class attribute holds {Bot.hands[-1]}")
        if hasattr(builtins, MARK):
            found.append(f"builtins.{MARK} = {getattr(builtins, MARK)}")
        if MARK in sys.modules:
            found.append(f"sys.modules[{MARK!r}] holds {getattr(sys.modules[MARK], 'hand', None)}")
        if os.environ.get(MARK):
            found.append(f"environment holds {os.environ[MARK]}")
        for obj in gc.get_objects():
            if isinstance(obj, dict) and obj.get("mark") == MARK:
                found.append(f"gc finds {obj.get('hand')}")
                break
        if found:
            raise RuntimeError("LEAK: " + "; ".join(found))

    def act(self, obs):
        if self.first:
            self.first = False
            hand = " ".join(str(c) for c in obs.hand)
            _HANDS.append(hand)
            Bot.hands.append(hand)
            setattr(builtins, MARK, hand)
            module = types.ModuleType(MARK)
            module.hand = hand
            sys.modules[MARK] = module
            os.environ[MARK] = hand
            lost = {"mark": MARK, "hand": hand}
            lost["self"] = lost  # a cycle nobody references: only gc.get_objects() finds it
            del lost
        return obs.legal[0]
