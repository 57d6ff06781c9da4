"""Game-agnostic engine: protocol, flow helper, RNG, canonical JSON, redaction, registry.

Imports only the standard library (a test enforces it)."""

from .canonical import canonical_json, copy_json, json_problem, sha256_hex, state_hash
from .content import ContentError, ContentItem, ContentLibrary, pin_for
from .flow import ChoiceNode, Flow, FlowGame, Node, said
from .play import apply_checked, check_orders, defaults_for
from .protocol import (
    CAPITAL,
    N_,
    ChoiceGrid,
    Event,
    GameInfo,
    GameModule,
    GameWords,
    IllegalOrder,
    Message,
    Option,
    Order,
    Outcome,
    Prompt,
    State,
    Step,
    WordedGame,
    capitalized,
    event,
    message,
    message_text,
)
from .redact import redact
from .registry import all_games, get_game, register
from .rng import Rng, scripted_state, seed_state

__all__ = [
    "CAPITAL", "N_", "Message", "capitalized", "message", "message_text", "ChoiceGrid", "ChoiceNode", "ContentError",
    "ContentItem", "ContentLibrary", "Event", "Flow", "FlowGame", "GameInfo", "GameModule", "GameWords", "IllegalOrder",
    "Node", "Option", "Order",
    "Outcome", "Prompt", "Rng", "State", "Step", "WordedGame", "all_games", "apply_checked", "canonical_json",
    "check_orders", "copy_json", "defaults_for", "event", "get_game", "json_problem", "pin_for", "redact",
    "register", "said", "scripted_state", "seed_state", "sha256_hex", "state_hash",
]
