import pytest

from adjudicator.engine import (
    Flow,
    GameInfo,
    GameModule,
    IllegalOrder,
    Node,
    Option,
    Prompt,
    check_orders,
    event,
)


class Ask(Node):
    def prompts(self, state, args):
        return {args["seat"]: Prompt(args["seat"], "pick", [{"n": 2}, {"n": 1}])}

    def apply(self, state, args, orders, events):
        state["picked"].append(orders[args["seat"]]["n"])
        events.append(event("picked", n=orders[args["seat"]]["n"]))
        FLOW.ret(state)


class Loop(Node):
    def advance(self, state, args, events):
        if len(state["picked"]) >= 2:
            FLOW.end(state)
        else:
            FLOW.call(state, "ask", seat="a")


FLOW = Flow({"ask": Ask(), "loop": Loop()})


def test_flow_calls_returns_and_settles():
    state = {"picked": []}
    FLOW.start(state, "loop")
    events: list = []
    FLOW.settle(state, events)
    assert FLOW.top(state) == {"node": "ask", "args": {"seat": "a"}}
    assert list(FLOW.prompts(state)) == ["a"]
    FLOW.apply(state, {"a": {"n": 1}}, events)
    FLOW.apply(state, {"a": {"n": 2}}, events)
    assert state["picked"] == [1, 2]
    assert FLOW.prompts(state) == {}
    assert [e["data"]["n"] for e in events] == [1, 2]


def test_flow_refuses_unknown_nodes_and_endless_procedures():
    with pytest.raises(KeyError):
        FLOW.goto({}, "nowhere")

    class Spin(Node):
        def advance(self, state, args, events):
            pass

    spin = Flow({"spin": Spin()})
    spin.MAX_AUTOMATIC_STEPS = 50
    state: dict = {}
    spin.start(state, "spin")
    with pytest.raises(RuntimeError):
        spin.settle(state, [])


def test_prompt_sorts_choices_and_checks_membership():
    prompt = Prompt("a", "pick", [{"n": 2}, {"n": 1}])
    assert prompt.choices == [{"n": 1}, {"n": 2}]
    assert prompt.allows({"n": 2}) and not prompt.allows({"n": 3})
    with pytest.raises(ValueError):
        Prompt("a", "pick", [], sealed=True)


def test_check_orders_enforces_sealed_groups_and_legality():
    prompts = {
        "a": Prompt("a", "bid", [{"b": 0}, {"b": 1}], sealed=True, group="g"),
        "b": Prompt("b", "bid", [{"b": 0}], sealed=True, group="g"),
    }
    check_orders(prompts, {"a": {"b": 1}, "b": {"b": 0}})
    with pytest.raises(IllegalOrder, match="missing: b"):
        check_orders(prompts, {"a": {"b": 1}})
    with pytest.raises(IllegalOrder, match="not a legal bid"):
        check_orders(prompts, {"a": {"b": 5}, "b": {"b": 0}})
    with pytest.raises(IllegalOrder, match="nothing to decide"):
        check_orders(prompts, {"c": {"b": 0}})
    with pytest.raises(IllegalOrder, match="game is over"):
        check_orders({}, {"a": {}})


def test_a_game_without_default_order_cannot_be_built():
    class NoDefault(GameModule):
        info = GameInfo("nodefault", "No default", "1", 2, 2)

        def setup(self, seed, seats, options): ...
        def prompts(self, state): ...
        def apply(self, state, orders): ...
        def parse_order(self, text, prompt): ...
        def format_order(self, order): ...
        def render_event(self, ev): ...
        def render_view(self, view, seat): ...
        def outcome(self, state): ...

    with pytest.raises(TypeError, match="default_order"):
        NoDefault()


def test_options_are_resolved_and_checked():
    info = GameInfo("x", "X", "1", 2, 3, options=(Option("side", "a", ("a", "b")),))
    assert info.resolve_options({}) == {"side": "a"}
    assert info.resolve_options({"side": "b"}) == {"side": "b"}
    with pytest.raises(IllegalOrder, match="must be one of"):
        info.resolve_options({"side": "c"})
    with pytest.raises(IllegalOrder, match="unknown option"):
        info.resolve_options({"colour": "red"})
