"""A Code of Ice and Fire (two players; `league` 1-4, default the full rules).

PettingZoo AEC: `env()` (wrapped as PettingZoo wraps its own) or `raw_env`; keyword arguments
`league`, `render_mode`, `max_cycles`.
Turn-based: no parallel form (see `realm_engines.envs`).
"""

from realm_engines.envs import aec_module

raw_env, env = aec_module("ice_and_fire_v0", "ice-and-fire", doc=__doc__)
