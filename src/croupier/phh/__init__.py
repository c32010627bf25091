"""PHH, the Poker Hand History standard: read, replay and write ``.phh`` / ``.phhs`` files.

>>> from croupier.phh import loads, replay
>>> hand = loads("variant = 'NT'\\nantes = [0, 0]\\nblinds_or_straddles = [1, 2]\\n"
...              "min_bet = 2\\nstarting_stacks = [200, 200]\\nactions = ['p2 f']\\n")[0]
>>> replay(hand).final_stacks
[201, 199]
"""

from croupier.phh.profiles import PROFILES, RuleProfile, profile_by_name
from croupier.phh.reader import HandHistory, PHHError, UnsupportedVariantError, load, loads
from croupier.phh.replay import Replay, replay

__all__ = [
    "PROFILES",
    "HandHistory",
    "PHHError",
    "Replay",
    "RuleProfile",
    "UnsupportedVariantError",
    "load",
    "loads",
    "profile_by_name",
    "replay",
]
