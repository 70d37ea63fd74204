import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]

# (game, variant, players, league): every game and variant the package offers.
CONFIGS = [
    ("kingdomino", None, 2, None),
    ("kingdomino", None, 3, 2),
    ("kingdomino", None, 4, None),
    ("kingdomino", "duel", 2, None),
    ("blocking", None, 2, None),
    ("blocking", None, 4, None),
    ("blocking", "duo", 2, None),
    ("blocking", "classic", 4, None),
    ("ice-and-fire", None, 2, 1),
    ("ice-and-fire", None, 2, None),
    ("carcassonne", None, 2, None),
    ("carcassonne", None, 4, 1),
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
