"""Shared helpers for the notation tests: record comparison without positions."""

from __future__ import annotations

from typing import Any

from raspis_cli.model.record import DealRecord, GameRecord


def deal_key(deal: DealRecord) -> dict[str, Any]:
    """A deal's content, positions left out; dict orders kept for bids."""
    return {
        "number": deal.number, "kind": deal.kind, "dealer": deal.dealer, "cards": deal.cards,
        "trump": repr(deal.trump),
        "hands": None if deal.hands is None else {k: list(v) for k, v in deal.hands.items()},
        "bids": None if deal.bids is None else list(deal.bids.items()),
        "tricks": None if deal.tricks is None else [
            [(p.player, int(p.card), p.joker) for p in t] for t in deal.tricks],
        "taken": deal.taken, "scores": deal.scores, "totals": deal.totals,
        "penalties": None if deal.penalties is None else [
            (p.player, p.points, p.reason) for p in deal.penalties],
        "replayed": deal.replayed, "comments": deal.comments,
        "anchors": deal.comment_anchors,
    }


def game_key(game: GameRecord) -> dict[str, Any]:
    """A game's content, positions left out."""
    return {
        "players": game.players, "tags": game.tags, "preset": game.rules_preset,
        "options": game.rules_options, "totals": game.totals, "unfinished": game.unfinished,
        "comments": game.comments, "anchors": game.comment_anchors,
        "deals": [deal_key(d) for d in game.deals],
    }


def games_key(games: list[GameRecord]) -> list[dict[str, Any]]:
    """The content of several games."""
    return [game_key(g) for g in games]
