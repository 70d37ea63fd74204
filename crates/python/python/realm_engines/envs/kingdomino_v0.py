"""Kingdomino (`players` 2-4; `variant="duel"` for the Mighty Duel; `league` 1-3).

PettingZoo AEC: `env()` (wrapped as PettingZoo wraps its own) or `raw_env`; keyword arguments
`players`, `variant`, `league`, `render_mode`, `max_cycles`.
Turn-based: no parallel form (see `realm_engines.envs`).
"""

from realm_engines.envs import aec_module

raw_env, env = aec_module("kingdomino_v0", "kingdomino", doc=__doc__)
