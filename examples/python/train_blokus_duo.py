#!/usr/bin/env python3
"""Train a Blokus Duo agent with PPO, in CleanRL's single-file style (PyTorch, CPU).

    pip install './crates/python[rl]'                       # realm_engines, torch
    python3 examples/python/train_blokus_duo.py             # about 20 minutes on 2 cores
    realm play blocking "python3 examples/python/agent.py" builtin:greedy --variant duo

The environment is realm's, unchanged: gymnasium.make("realm_engines/BlokusDuo-v0",
opponent="builtin:random", seat=S, flatten=True), whose flat observation is the board planes
(the agent's squares, the opponent's, then each one's anchor cells) followed by the scalars
(the shapes each player has left), and whose action_masks() are the legal moves. Half the
environments play the first seat and half the second. The reward is realm's: +1 a win, -1 a
loss, at the end.

The network is fully convolutional, because a Blokus action id is a place on the board:
(orientation * 14 + y) * 14 + x puts an orientation's bounding box with its top-left corner
at (x, y). One output plane per orientation (91) gives every action its logit, and the same
weights judge a shape anywhere, so what is learnt in one corner holds in the others. The
value head averages the last planes over the board.

At the end the script plays --eval-games deterministic games against random and against
greedy (half from each seat), prints the win rates with their 95% intervals and writes the
weights twice: blokus_duo_agent.pt (torch) and blokus_duo_agent.npz, which agent.py runs with
numpy alone to play as a realm bot.
"""
import argparse
import math
import time
from pathlib import Path

import gymnasium
import numpy as np
import torch
from torch import nn

import realm_engines  # noqa: F401  (registers the realm_engines/... ids)

ENV_ID = "realm_engines/BlokusDuo-v0"


def arguments():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=150_000, help="agent steps to train on")
    p.add_argument("--envs", type=int, default=16, help="games played side by side")
    p.add_argument("--rollout", type=int, default=64, help="steps per environment per update")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--gamma", type=float, default=1.0, help="a game is short: no discount")
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--value-coef", type=float, default=0.5)
    p.add_argument("--channels", type=int, default=32)
    p.add_argument(
        "--opponents",
        default="builtin:random",
        help="comma-separated; the environments take them in turn",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1, help="torch's threads")
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--out", default=str(Path(__file__).with_name("blokus_duo_agent")))
    return p.parse_args()


class Agent(nn.Module):
    """Conv trunk over the board (the scalars enter as a per-channel bias of the first
    layer), one logit plane per orientation, and a value from the averaged planes."""

    def __init__(self, planes, size, n_scalars, n_actions, channels):
        super().__init__()
        self.planes, self.size = planes, size
        self.board_len = planes * size * size
        self.orientations = n_actions // (size * size)
        self.scalars = nn.Linear(n_scalars, channels)
        self.convs = nn.ModuleList(
            [nn.Conv2d(planes, channels, 3, padding=1)]
            + [nn.Conv2d(channels, channels, 3, padding=1) for _ in range(3)]
        )
        self.policy = nn.Conv2d(channels, self.orientations, 1)
        self.value = nn.Sequential(nn.Linear(channels, 64), nn.ReLU(), nn.Linear(64, 1))

    def trunk(self, obs):
        board = obs[:, : self.board_len].view(-1, self.planes, self.size, self.size)
        scalars = obs[:, self.board_len :]
        h = torch.relu(self.convs[0](board) + self.scalars(scalars)[:, :, None, None])
        for conv in self.convs[1:]:
            h = torch.relu(conv(h))
        return h

    def forward(self, obs, mask):
        h = self.trunk(obs)
        logits = self.policy(h).flatten(1)  # (orientation, y, x): the action ids' order
        # A large negative rather than -inf keeps the entropy finite.
        logits = torch.where(mask, logits, torch.full_like(logits, -1e9))
        return logits, self.value(h.mean(dim=(2, 3))).squeeze(1)


def make_env(seat, opponent):
    return gymnasium.make(ENV_ID, opponent=opponent, seat=seat, flatten=True)


def observe_all(envs, observations):
    masks = np.stack([e.unwrapped.action_masks() for e in envs])
    return torch.as_tensor(np.stack(observations)), torch.as_tensor(masks)


def train(args, agent):
    opponents = args.opponents.split(",")
    envs = [make_env(i % 2, opponents[i // 2 % len(opponents)]) for i in range(args.envs)]
    observations = [e.reset(seed=args.seed * 1000 + i)[0] for i, e in enumerate(envs)]
    games = args.seed * 1000 + args.envs
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    T, E = args.rollout, args.envs
    obs_buf = torch.zeros((T, E, envs[0].observation_space.shape[0]))
    mask_buf = torch.zeros((T, E, envs[0].action_space.n), dtype=torch.bool)
    act_buf, logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((T, E)) for _ in range(5))
    results, start, steps = [], time.time(), 0
    updates = math.ceil(args.steps / (T * E))
    for update in range(1, updates + 1):
        for g in optimizer.param_groups:  # linear learning-rate decay, as CleanRL does
            g["lr"] = args.lr * (1 - (update - 1) / updates)
        for t in range(T):
            obs, mask = observe_all(envs, observations)
            with torch.no_grad():
                logits, value = agent(obs, mask)
            dist = torch.distributions.Categorical(logits=logits)
            action = dist.sample()
            obs_buf[t], mask_buf[t], act_buf[t] = obs, mask, action
            logp_buf[t], val_buf[t] = dist.log_prob(action), value
            for i, env in enumerate(envs):
                observations[i], reward, terminated, truncated, _ = env.step(int(action[i]))
                rew_buf[t, i], done_buf[t, i] = reward, float(terminated or truncated)
                if terminated or truncated:
                    results.append(reward)
                    observations[i], _ = env.reset(seed=games)
                    games += 1
        steps += T * E
        with torch.no_grad():  # generalized advantage estimation
            next_value = agent(*observe_all(envs, observations))[1]
            advantages, last = torch.zeros_like(rew_buf), torch.zeros(E)
            for t in reversed(range(T)):
                following = next_value if t == T - 1 else val_buf[t + 1]
                alive = 1.0 - done_buf[t]
                delta = rew_buf[t] + args.gamma * following * alive - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * alive * last
                advantages[t] = last
            returns = advantages + val_buf
        b_obs, b_mask = obs_buf.flatten(0, 1), mask_buf.flatten(0, 1)
        b_act, b_logp = act_buf.flatten(), logp_buf.flatten()
        b_adv, b_ret = advantages.flatten(), returns.flatten()
        size = T * E // args.minibatches
        for _ in range(args.epochs):
            for idx in torch.randperm(T * E).split(size):
                logits, value = agent(b_obs[idx], b_mask[idx])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                adv = (b_adv[idx] - b_adv[idx].mean()) / (b_adv[idx].std() + 1e-8)
                clipped = ratio.clamp(1 - args.clip, 1 + args.clip)
                policy_loss = torch.max(-adv * ratio, -adv * clipped).mean()
                value_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                loss = policy_loss + args.value_coef * value_loss
                loss = loss - args.entropy * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        if update % 10 == 0 or update == updates:
            recent = results[-200:]
            wins = sum(r > 0 for r in recent) / max(1, len(recent))
            print(
                f"steps {steps:>8}  games {len(results):>6}  "
                f"won {wins:6.1%} of the last {len(recent)}  {time.time() - start:6.0f} s",
                flush=True,
            )
    return time.time() - start


def wilson(wins, n, z=1.96):
    """The 95% Wilson score interval of a win rate."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def evaluate(agent, opponent, games, seed):
    """Deterministic play (the most likely legal action), half the games from each seat."""
    wins = draws = 0
    for g in range(games):
        env = make_env(g % 2, opponent)
        obs, _ = env.reset(seed=seed + g)
        done = False
        while not done:
            mask = torch.as_tensor(env.unwrapped.action_masks())[None]
            with torch.no_grad():
                logits, _ = agent(torch.as_tensor(obs)[None], mask)
            obs, reward, done, truncated, _ = env.step(int(logits.argmax()))
            done = done or truncated
        wins += reward > 0
        draws += reward == 0
    low, high = wilson(wins + draws / 2, games)
    print(
        f"against {opponent}: {wins} won, {draws} drawn, {games - wins - draws} lost of {games}"
        f"  score {(wins + draws / 2) / games:.1%}  95% interval [{low:.1%}, {high:.1%}]",
        flush=True,
    )


def save(agent, out):
    torch.save(agent.state_dict(), f"{out}.pt")
    weights = {k: v.detach().numpy() for k, v in agent.state_dict().items()}
    np.savez(f"{out}.npz", planes=agent.planes, size=agent.size, **weights)
    print(f"wrote {out}.pt and {out}.npz")


def main():
    args = arguments()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    probe = realm_engines.Game("blocking", variant="duo")
    planes, size, _ = probe.board_shape
    agent = Agent(planes, size, probe.n_scalars, probe.n_actions, args.channels)
    seconds = train(args, agent)
    print(f"trained on {args.steps} steps in {seconds / 60:.1f} minutes")
    save(agent, args.out)
    for opponent in ("builtin:random", "builtin:greedy"):
        evaluate(agent, opponent, args.eval_games, seed=10**6)


if __name__ == "__main__":
    main()
