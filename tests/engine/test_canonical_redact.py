import pytest

from adjudicator.engine import canonical_json, copy_json, json_problem, redact, sha256_hex


def test_canonical_json_is_order_independent_and_compact():
    assert canonical_json({"b": 1, "a": [1, "é"]}) == canonical_json({"a": [1, "é"], "b": 1})
    assert canonical_json({"b": 1, "a": 2}) == b'{"a":2,"b":1}'
    assert canonical_json("é") == '"é"'.encode()


def test_hash_changes_with_any_value():
    assert sha256_hex({"a": 1}) != sha256_hex({"a": 2})
    assert len(sha256_hex(None)) == 64


@pytest.mark.parametrize(
    "value, problem",
    [
        ({"a": 1.5}, "float"),
        ({"a": (1, 2)}, "tuple"),
        ({"a": {1, 2}}, "set"),
        ({1: "x"}, "key"),
        ({"a": [1, {"b": None, "c": True}]}, None),
    ],
)
def test_json_problem(value, problem):
    found = json_problem(value)
    if problem is None:
        assert found is None
    else:
        assert problem in found


def test_copy_json_is_deep():
    original = {"a": [{"b": 1}]}
    clone = copy_json(original)
    clone["a"][0]["b"] = 2
    assert original["a"][0]["b"] == 1


def test_redact_strips_secret_and_other_private_parts():
    state = {"board": [1], "secret": {"deck": [3, 2]}, "private": {"red": {"hand": [1]}, "blue": {"hand": [9]}}}
    red = redact(state, "red")
    assert "secret" not in red
    assert red["private"] == {"red": {"hand": [1]}}
    public = redact(state, None)
    assert public["private"] == {} and public["board"] == [1]
    red["board"].append(2)
    assert state["board"] == [1]
