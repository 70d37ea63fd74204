"""Kingdom Builder, the full board game (`players` 2-4; `league` 1-3).

PettingZoo AEC: `env()` (wrapped as PettingZoo wraps its own) or `raw_env`; keyword arguments
`players`, `league`, `render_mode`, `max_cycles`.
Turn-based: no parallel form (see `realm_engines.envs`). One agent acts several times in a row:
each settlement of its build and each tile, until it ends its turn (id 324800).
"""

from realm_engines.envs import aec_module

raw_env, env = aec_module("kingdom_builder_v0", "kingdom-builder", doc=__doc__)
