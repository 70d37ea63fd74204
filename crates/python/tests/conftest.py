import importlib
import os
import pathlib
import shutil

import pytest
import realm_engines

ROOT = pathlib.Path(__file__).resolve().parents[3]


def catalog_configs():
    """Every game and variant the package offers (realm_engines.games(), from realm's catalog),
    with its smallest and largest player count, in the top league."""
    configs = []
    for game, _title, variants in realm_engines.games():
        for variant, counts in variants:
            for players in sorted({counts[0], counts[-1]}):
                configs.append((game, variant, players, None))
    return configs


# (game, variant, players, league): the catalog's games and variants, then lower leagues,
# which change the rules (the catalog does not list leagues).
CONFIGS = catalog_configs() + [
    ("kingdomino", None, 3, 2),
    ("ice-and-fire", None, 2, 1),
    ("carcassonne", None, 4, 1),
    ("kingdom-builder", None, 3, 1),
]


def config_id(config):
    game, variant, players, league = config
    return f"{game}-{variant or 'standard'}-{players}p-league{league or 'top'}"


@pytest.fixture(params=CONFIGS, ids=config_id)
def config(request):
    return request.param


@pytest.fixture(scope="session")
def realm_bin():
    """The realm binary: $REALM_BIN, else the workspace's debug or release build, else PATH."""
    candidates = [os.environ.get("REALM_BIN")]
    candidates += [str(ROOT / "target" / kind / "realm") for kind in ("debug", "release")]
    candidates.append(shutil.which("realm"))
    for path in candidates:
        if path and os.access(path, os.X_OK):
            return path
    raise RuntimeError("no realm binary: build it (cargo build) or set REALM_BIN")


def rl_library(name):
    """An optional RL library (the `[rl]` extra): the test is skipped without it, unless
    $REALM_REQUIRE_RL is set (tests/run.sh sets it, as CI installs the extra), when its absence
    fails the test instead of hiding it."""
    if os.environ.get("REALM_REQUIRE_RL"):
        return importlib.import_module(name)
    return pytest.importorskip(name)
