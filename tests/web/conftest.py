"""Web tests: a real app on a temporary SQLite database, CSRF on, tasks run inline."""

from __future__ import annotations

import re

import pytest

from tests.web.forms import forms_of


@pytest.fixture
def app(tmp_path, monkeypatch, toy):
    monkeypatch.setenv("PBEM_EAGER", "1")  # workers/ runs the tasks inline
    monkeypatch.setenv("PBEM_MAIL_DIR", str(tmp_path / "mail"))
    monkeypatch.delenv("SMTP_HOST", raising=False)
    from web import create_app

    config = {
        "TESTING": True,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'web.sqlite3'}",
        "SECRET_KEY": "test-secret",
        "PBEM_BASE_URL": "http://pbem.test",
        "PBEM_VAR_DIR": str(tmp_path / "var"),
        "PBEM_BOARD_STRICT": True,
    }
    app = create_app(config)
    yield app
    from adjudicator import store

    store.configure(None)


@pytest.fixture
def client(app):
    return app.test_client()


class Player:
    """A seat, as a test drives it through its secret page."""

    def __init__(self, client, url: str) -> None:
        self.client = client
        self.url = url

    def page(self) -> str:
        resp = self.client.get(self.url)
        assert resp.status_code == 200, resp.status_code
        return resp.get_data(as_text=True)

    def order_form(self, html: str | None = None):
        forms = [f for f in forms_of(html or self.page()) if "order" in f.selects]
        return forms[0] if forms else None

    def command_form(self, html: str | None = None):
        forms = [f for f in forms_of(html or self.page()) if "commands" in f.textareas]
        return forms[0] if forms else None

    def compose_to(self, label: str) -> str:
        """The seat page with the order form that lists `label`: a long decision is narrowed
        through the composer's steps (GET ?pick=...) as a person would, word group by word group."""
        html = self.page()
        wanted = label.split(" — ", 1)[0].split()
        for _ in range(10):
            if self.order_form(html) is not None:
                return html
            # a step is a select of parts, or one button per part when there are few
            steps = [[v for v, _ in f.selects["pick"]] if "pick" in f.selects else f.buttons["pick"]
                     for f in forms_of(html) if "pick" in f.selects or "pick" in f.buttons]
            assert steps, "neither an order form nor a composer step on the page"
            fitting = [value for value in steps[0] if value and _leads_to(value.split(), wanted)]
            assert fitting, f"no composer step leads to {label!r}: {steps[0]}"
            resp = self.client.get(self.url, query_string={"pick": fitting[0]})
            assert resp.status_code == 200, resp.status_code
            html = resp.get_data(as_text=True)
        raise AssertionError(f"the composer did not reach {label!r}")

    def choose(self, label: str):
        html = self.compose_to(label)
        form = self.order_form(html)
        assert form is not None, "no order form on the page"
        return form.submit(self.client, self.url, follow=True, order=form.option_value("order", label))

    def place(self, area: str, *markers: int):
        """Doge's placement form: tick these marker values, press the area's button."""
        [form] = [f for f in forms_of(self.page()) if "placement" in f.fields]
        data = {**form.fields, "area": area, "marker": [str(m) for m in markers]}
        return self.client.post(form.action or self.url, data=data, follow_redirects=True)

    def command(self, text: str):
        form = self.command_form()
        assert form is not None, "no command box on the page"
        return form.submit(self.client, self.url, follow=True, commands=text)


def _leads_to(step: list[str], wanted: list[str]) -> bool:
    if step[-1:] == ["="]:  # the composer's "(just this)": exactly these words
        return step[:-1] == wanted
    return wanted[: len(step)] == step


def create_game(client, game="toy", seats=2, **extra):
    html = client.get(f"/new?game={game}").get_data(as_text=True)
    form = [f for f in forms_of(html) if f.method == "post"][0]
    resp = form.submit(client, "/new", seats=str(seats), **extra)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    html = resp.get_data(as_text=True)
    admin = re.search(r'value="http://pbem\.test(/admin/[^"]+)"', html).group(1)
    invites = re.findall(r'value="http://pbem\.test(/join/[^"]+)"', html)
    return html, admin, invites


def join(client, invite_url: str, name: str, **extra) -> Player:
    html = client.get(invite_url).get_data(as_text=True)
    form = [f for f in forms_of(html) if f.method == "post"][0]
    resp = form.submit(client, invite_url, name=name, **extra)
    assert resp.status_code == 303, resp.get_data(as_text=True)
    return Player(client, resp.headers["Location"])


@pytest.fixture
def toy_game(client):
    """A started two-seat toy game: (admin url, [Player, Player], game id)."""
    _, admin, invites = create_game(client, seats=2, **{"opt-rounds": "2"})
    players = [join(client, url, name) for url, name in zip(invites, ["Ada", "Bob"], strict=True)]
    game_id = admin.split("/")[2]
    return admin, players, game_id
