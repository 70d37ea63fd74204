"""The low-level API: positions, action ids and text, observations, hidden information."""

import pickle
import random

import numpy as np
import pytest

import realm_engines


def new_game(config, seed):
    game, variant, players, league = config
    return realm_engines.Game(game, variant=variant, league=league, players=players, seed=seed)


def play_random(game, rng, max_actions=100_000):
    """Plays random legal actions to the end; returns the ids played."""
    played = []
    while not game.is_over and len(played) < max_actions:
        action = rng.choice(game.legal_actions())
        game.apply(action)
        played.append(action)
    return played


# The games with a hidden part (the order of the tiles not dealt or drawn yet).
HIDDEN_INFORMATION = ("kingdomino", "carcassonne", "kingdom-builder")


def assert_same_observation(mine, theirs):
    assert np.array_equal(mine["observation"]["board"], theirs["observation"]["board"])
    assert np.array_equal(mine["observation"]["scalars"], theirs["observation"]["scalars"])
    assert np.array_equal(mine["action_mask"], theirs["action_mask"])


def test_spaces_and_start_position(config):
    game = new_game(config, 3)
    assert game.n_players == config[2]
    assert game.to_move is not None and not game.is_over
    legal = game.legal_actions()
    assert legal and len(set(legal)) == len(legal)
    assert all(0 <= a < game.n_actions for a in legal)
    obs = game.observe(game.to_move)
    assert obs["observation"]["board"].shape == game.board_shape
    assert obs["observation"]["board"].dtype == np.uint8
    assert obs["observation"]["scalars"].shape == (game.n_scalars,)
    assert obs["action_mask"].shape == (game.n_actions,)
    assert sorted(np.flatnonzero(obs["action_mask"]).tolist()) == sorted(legal)
    other = (game.to_move + 1) % game.n_players
    assert not game.observe(other)["action_mask"].any()


def test_known_action_counts():
    # The Blocking spec's acceptance A4: all 21 shapes give 58 placements at a player's own
    # corner, as in Blokus Classic's first move.
    classic = realm_engines.Game("blocking", variant="classic", seed=1)
    assert len(classic.legal_actions()) == 58
    assert classic.action_text(classic.legal_actions()[0]) == "0 0 A001"
    # Ice and Fire league 1, first phase: TRAIN level 1 next to the HQ, or WAIT.
    iaf = realm_engines.Game("ice-and-fire", league=1, seed=1)
    texts = sorted(iaf.action_text(a) for a in iaf.legal_actions())
    assert texts == ["TRAIN 1 0 1", "TRAIN 1 1 0", "WAIT"]


def test_ids_and_protocol_text_round_trip(config):
    rng = random.Random(11)
    for seed in range(3):
        game = new_game(config, seed)
        steps = 0
        while not game.is_over and steps < 400:
            legal = game.legal_actions()
            for action in rng.sample(legal, min(len(legal), 25)):
                assert game.action_id(game.action_text(action)) == action
            game.apply(rng.choice(legal))
            steps += 1
    with pytest.raises(ValueError):
        new_game(config, 0).action_id("NOT AN ACTION")


def test_illegal_actions_are_refused_and_change_nothing(config):
    game = new_game(config, 4)
    legal = set(game.legal_actions())
    illegal = next(a for a in range(game.n_actions) if a not in legal)
    before = game.observe(game.to_move)
    with pytest.raises(ValueError):
        game.apply(illegal)
    with pytest.raises(ValueError):
        game.apply(game.n_actions + 5)
    after = game.observe(game.to_move)
    assert np.array_equal(before["observation"]["board"], after["observation"]["board"])
    assert set(game.legal_actions()) == legal


def test_same_seed_and_actions_give_the_same_game(config):
    a, b = new_game(config, 9), new_game(config, 9)
    played = play_random(a, random.Random(5))
    for action in played:
        b.apply(action)
    assert b.is_over and a.outcome() == b.outcome()
    assert a.random_playout(1) == 0
    c, d = new_game(config, 9), new_game(config, 9)
    assert c.random_playout(42) == d.random_playout(42)
    assert c.outcome() == d.outcome()
    for p in range(c.n_players):
        assert np.array_equal(
            c.observe(p)["observation"]["board"], d.observe(p)["observation"]["board"]
        )


def test_clone_is_independent(config):
    game = new_game(config, 2)
    copy = game.clone()
    copy.random_playout(3)
    assert copy.is_over and not game.is_over
    assert game.random_playouts(3, seed=1) > 0 and not game.is_over


def test_outcome_ranks_follow_scores_in_a_finished_game(config):
    game = new_game(config, 6)
    game.random_playout(6)
    outcome = game.outcome()
    assert game.is_over and len(outcome["ranks"]) == game.n_players
    assert min(outcome["ranks"]) == 1
    rewards = realm_engines.rewards(outcome["ranks"])
    assert abs(sum(rewards)) < 1e-9
    if config[0] != "ice-and-fire":
        # Without eliminations the best score ranks first.
        best = max(range(game.n_players), key=lambda p: outcome["scores"][p])
        assert outcome["ranks"][best] == 1


@pytest.mark.parametrize(
    "game_name,players", [("kingdomino", 2), ("kingdomino", 4), ("carcassonne", 3)]
)
def test_hidden_information_never_reaches_an_observation(game_name, players):
    changed = 0
    for seed in range(6):
        game = realm_engines.Game(game_name, players=players, seed=seed)
        play_random(game, random.Random(seed), max_actions=6 + seed)
        twin = game.clone()
        twin.reshuffle_hidden(1000 + seed)
        for p in range(game.n_players):
            assert_same_observation(game.observe(p), twin.observe(p))
        # The hidden part did change: the same random play then ends differently.
        game.random_playout(7)
        twin.random_playout(7)
        changed += game.outcome() != twin.outcome()
    assert changed > 0


def test_reshuffle_hidden_at_every_position_of_a_whole_game(config):
    # Kingdomino's last turn once sliced past its lines and panicked.
    game = new_game(config, 21)
    rng = random.Random(21)
    step = 0
    while True:
        twin = game.clone()
        twin.reshuffle_hidden(step)
        for p in range(game.n_players):
            assert_same_observation(game.observe(p), twin.observe(p))
        if config[0] in HIDDEN_INFORMATION:
            twin.random_playout(step)  # the redrawn game plays on to its end
            assert twin.is_over
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
        step += 1


def test_a_rust_panic_is_a_runtime_error():
    from realm_engines import _realm

    with pytest.raises(RuntimeError, match="internal error in realm .*: deliberate"):
        _realm._panic_for_tests("deliberate")
    try:
        _realm._panic_for_tests("caught")
    except Exception as e:  # what a search loop's guard catches
        caught = e
    assert "caught" in str(caught)


def test_perfect_information_games_have_nothing_to_reshuffle():
    for name, variant in [("blocking", "duo"), ("ice-and-fire", None)]:
        game = realm_engines.Game(name, variant=variant, seed=3)
        twin = game.clone()
        twin.reshuffle_hidden(99)
        game.random_playout(4)
        twin.random_playout(4)
        assert game.outcome() == twin.outcome()


def test_observation_is_from_the_observers_point_of_view():
    game = realm_engines.Game("blocking", variant="duo", seed=1)
    game.apply(game.legal_actions()[0])  # player 0 places a monomino
    mine = game.observe(0)["observation"]["board"]
    theirs = game.observe(1)["observation"]["board"]
    assert mine[0].sum() == 1 and mine[1].sum() == 0
    assert theirs[0].sum() == 0 and theirs[1].sum() == 1


def test_setup_errors_are_value_errors():
    with pytest.raises(ValueError, match="kingdom-builder"):
        realm_engines.Game("kingdom-builder", players=5)
    with pytest.raises(ValueError) as unknown:
        realm_engines.Game("chess")
    # Every playable game is named (realm's catalog also knows games with scoring only).
    prefix = "chess does not exist; known games: "
    assert str(unknown.value).startswith(prefix)
    known = str(unknown.value).removeprefix(prefix).split(", ")
    assert {game for game, _title, _variants in realm_engines.games()} <= set(known)
    with pytest.raises(ValueError):
        realm_engines.Game("blocking", variant="hexagonal")
    with pytest.raises(ValueError):
        realm_engines.Game("ice-and-fire", players=3)


def test_the_distribution_is_realm_engines_importing_as_realm_engines():
    # "realm" on the package index is an unrelated project that also imports as `realm`.
    from importlib import metadata

    assert metadata.metadata("realm-engines")["Name"] == "realm-engines"
    assert metadata.version("realm-engines") == realm_engines.__version__
    assert realm_engines._realm.__name__ == "realm_engines._realm"
    assert realm_engines.Game.__module__ == "realm_engines"


def assert_same_position(a, b):
    assert (a.to_move, a.is_over, a.seed, a.n_players) == (b.to_move, b.is_over, b.seed, b.n_players)
    assert a.legal_actions() == b.legal_actions()
    for p in range(a.n_players):
        assert_same_observation(a.observe(p), b.observe(p))
    assert a.outcome() == b.outcome()


def test_a_pickled_game_is_the_same_position_and_plays_on_the_same(config):
    game = new_game(config, 13)
    rng = random.Random(13)
    for _ in range(12):
        game.apply(rng.choice(game.legal_actions()))
    game.reshuffle_hidden(5)  # what nobody has seen is redrawn, and the copy keeps it
    copy = pickle.loads(pickle.dumps(game))
    assert isinstance(copy, realm_engines.Game)
    assert_same_position(game, copy)
    # Further play: the same actions, then the same random playout, end the same.
    for _ in range(5):
        if game.is_over:
            break
        action = rng.choice(game.legal_actions())
        game.apply(action)
        copy.apply(action)
    twice = pickle.loads(pickle.dumps(copy))  # a copy's copy, after more steps
    for g in (game, copy, twice):
        g.random_playout(3)
    assert_same_position(game, copy)
    assert_same_position(game, twice)
    assert_same_position(game, pickle.loads(pickle.dumps(game)))  # after a playout


def test_games_go_to_multiprocessing_workers():
    import multiprocessing

    game = realm_engines.Game("carcassonne", players=3, seed=4)
    game.apply(game.legal_actions()[0])
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        moved = pool.apply(_legal_actions_in_a_worker, (game,))
    assert moved == game.legal_actions()


def _legal_actions_in_a_worker(game):
    return game.legal_actions()


def test_a_sessions_position_pickles_and_the_session_says_why_it_does_not():
    session = realm_engines.Session("ice-and-fire", [None, "builtin:greedy"], league=1, seed=4)
    rng = random.Random(4)
    for _ in range(9):  # several calls, the last one half answered
        session.play(rng.choice(session.position().legal_actions()))
    position = session.position()
    copy = pickle.loads(pickle.dumps(position))
    assert_same_position(position, copy)
    copy.random_playout(1)
    position.random_playout(1)
    assert_same_position(position, copy)
    with pytest.raises(TypeError, match="a Session cannot be pickled: its bot seats"):
        pickle.dumps(session)


def test_a_damaged_pickle_is_a_value_error():
    with pytest.raises(ValueError, match="not a saved position"):
        realm_engines._restore_game("{}")


def test_observations_are_writable_and_writing_changes_nothing(config):
    game = new_game(config, 8)
    player = game.to_move
    before = game.observe(player)
    legal = game.legal_actions()
    obs = game.observe(player)
    arrays = [obs["observation"]["board"], obs["observation"]["scalars"], obs["action_mask"]]
    for array in arrays:
        assert array.flags.writeable
        array[...] = 1
        array.flat[0] = 7
    obs["action_mask"][0] = 1  # as a masking wrapper would
    assert_same_observation(game.observe(player), before)
    assert game.legal_actions() == legal
    # Each observation is a new array: a later one is not the one written into.
    assert not np.shares_memory(game.observe(player)["action_mask"], obs["action_mask"])


def test_every_observation_lies_within_the_scalar_bounds(config):
    from realm_engines.envs import observation_space

    low, high = (np.array(b, dtype=np.float32) for b in new_game(config, 0).scalar_bounds)
    assert low.shape == high.shape == (new_game(config, 0).n_scalars,)
    assert np.all(np.isfinite(low)) and np.all(np.isfinite(high)) and np.all(low < high)
    for seed in range(3):
        game = new_game(config, seed)
        space = observation_space(game)
        rng = random.Random(seed)
        while True:
            for p in range(game.n_players):
                obs = game.observe(p)
                scalars = obs["observation"]["scalars"]
                outside = np.flatnonzero((scalars < low) | (scalars > high))
                assert outside.size == 0, (outside, scalars[outside])
                assert space.contains(obs)
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
