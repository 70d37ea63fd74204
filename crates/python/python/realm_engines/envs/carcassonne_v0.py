"""Carcassonne (`players` 2-4; `league` 1-3).

PettingZoo AEC: `env()` (wrapped as PettingZoo wraps its own) or `raw_env`; keyword arguments
`players`, `league`, `render_mode`, `max_cycles`.
Turn-based: no parallel form (see `realm_engines.envs`).
"""

from realm_engines.envs import aec_module

raw_env, env = aec_module("carcassonne_v0", "carcassonne", doc=__doc__)
