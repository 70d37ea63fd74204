"""Blokus Duo: 14×14, two players.

PettingZoo AEC: `env()` (wrapped as PettingZoo wraps its own) or `raw_env`; keyword arguments
`render_mode`, `max_cycles`.
Turn-based: no parallel form (see `realm_engines.envs`).
"""

from realm_engines.envs import aec_module

raw_env, env = aec_module("blocking_duo_v0", "blocking", variant="duo", doc=__doc__)
