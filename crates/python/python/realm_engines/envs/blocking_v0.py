"""CodinGame's Blocking on 13×13 (`players` 2-4).

PettingZoo AEC: `env()` (wrapped as PettingZoo wraps its own) or `raw_env`; keyword arguments
`players`, `render_mode`, `max_cycles`.
Turn-based: no parallel form (see `realm_engines.envs`).
"""

from realm_engines.envs import aec_module

raw_env, env = aec_module("blocking_v0", "blocking", doc=__doc__)
