"""Blokus Classic: 20×20, four players.

PettingZoo AEC: `env()` (wrapped as PettingZoo wraps its own) or `raw_env`; keyword arguments
`render_mode`, `max_cycles`.
Turn-based: no parallel form (see `realm_engines.envs`).
"""

from realm_engines.envs import aec_module

raw_env, env = aec_module("blocking_classic_v0", "blocking", variant="classic", doc=__doc__)
