"""No output reaches a party before its time (issue 11).

Random games of every title are played through the service; every few steps the test fetches
everything a party can reach — for a stranger the game list, the game's page, log, Atom feed and
export and a bad-link page; for each seat B its own page, log and mail settings page, the pages
of a refused and of a stale order, the reply to a mailed bad order, and the mails and webhook
payloads addressed to B — and fails if any of it holds a secret that party may not see yet.

Two oracles, taken from the engine rather than written per game (only how a card id is named is):

* Needles. Canaries the test plants (the server seed, each seat's standing orders and private
  notes, private press) and the game's own hidden values: what the full state holds that `game.view(state, X)`
  removes (the secret part, other seats' private parts), what events addressed to others carry,
  and other seats' sealed orders and salts, turned into distinctive renderings (raw slugs, card
  names). A rendering is a needle for X only while the engine's own renderings for X (its view,
  its log, its choices) never showed it.
* Scrambling. The hidden parts of the stored state are replaced by others of the same shape and
  every page fetched again: a page that changes depends on something its reader may not see.
"""

from __future__ import annotations

import html
import json
import os
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.cli.playout import _scramble
from adjudicator.engine import GameModule, all_games, get_game
from adjudicator.mail import compose
from adjudicator.record import seed_commitment
from adjudicator.service.common.core import current_prompts
from adjudicator.service.history.gamelog import visible
from adjudicator.service.people.signin import calendar_token
from adjudicator.service.play.notify import reply_address
from adjudicator.store import Game, OutboxMessage, RecordEntry, SealedOrder, Seat

# Seat counts per title (every count is not needed in CI); PBEM_LEAK_SEATS=all plays each title
# at every count it allows.
SEATS = {"1960": [2], "china": [3], "doge": [4], "founding-fathers": [3]}
GAMES_PER_COUNT = int(os.environ.get("PBEM_LEAK_GAMES", "1"))
STEPS = int(os.environ.get("PBEM_LEAK_STEPS", "80"))  # steps played per game
CHECK_EVERY = int(os.environ.get("PBEM_LEAK_EVERY", "12"))  # steps between two full checks
DEFAULT_RATE = 0.05  # how often the moderator forces defaults (server-chosen orders are secret too)
MIN_NEEDLE = 6  # shorter renderings ("red", "E5", "3") are not distinctive


def _cases() -> list[tuple[str, int, int]]:
    every = os.environ.get("PBEM_LEAK_SEATS") == "all"
    cases = []
    for game_id in sorted(g for g in SEATS if g in all_games()):  # the four titles, not test games
        info = all_games()[game_id].info
        counts = range(info.min_seats, info.max_seats + 1) if every else SEATS.get(game_id, [info.min_seats])
        cases += [(game_id, n, k) for n in counts for k in range(GAMES_PER_COUNT)]
    return cases


# ---------------------------------------------------------------------------- text handling


_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")
_DTSTAMP = re.compile(r"DTSTAMP:\S+")
_CSRF = re.compile(r'(name="csrf_token"[^>]*value=")[^"]*"|(value=")[^"]*("[^>]*name="csrf_token")')


def plain(text: str) -> str:
    """What a reader sees: tags dropped, entities decoded, Markdown emphasis and spacing folded."""
    text = html.unescape(_TAG.sub(" ", text))
    text = re.sub(r"[*_`]", "", text)
    return _SPACE.sub(" ", text).casefold()


def leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for v in value.values():  # keys are the state's structure ("hand", "deck"), not its contents
            yield from leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from leaves(v)
    elif value is not None and not isinstance(value, bool):
        yield value


def renderings(game_id: str, value: Any) -> set[str]:
    """Distinctive ways a hidden value could show up in an output: a slug as written (card ids,
    area names) and, for card games, the card's name."""
    out: set[str] = set()
    if isinstance(value, str):
        out.add(value)
        out.add(value.replace("-", " "))
    if game_id == "1960":
        from adjudicator.games.nineteen_sixty.data import CARDS

        if isinstance(value, int) and not isinstance(value, bool) and value in CARDS:
            out.add(CARDS[value].name)
    elif game_id == "founding-fathers" and isinstance(value, str):
        from adjudicator.games.founding_fathers.data import deck

        try:
            out.add(deck().name(value))
        except (KeyError, ValueError):
            pass
    return {plain(r).strip() for r in out if len(r) >= MIN_NEEDLE and re.search("[A-Za-z]", r)}


# ---------------------------------------------------------------------------- the game under test


@dataclass
class LeakGame:
    client: Any
    game_id: str
    game: GameModule
    admin: str
    tokens: dict[str, str]
    seed: str
    invite: tuple[str, str, str] = ("", "", "")  # (game, seat, token): an open seat of another game, to join
    canaries: dict[str | None, set[str]] = field(default_factory=dict)  # planted secret -> who may see it
    known: dict[str | None, set[Any]] = field(default_factory=dict)  # hidden values X was shown before
    choices: dict[str | None, set[str]] = field(default_factory=dict)  # order texts X was offered
    mailed: int = 0

    @property
    def seats(self) -> list[str]:
        return sorted(self.tokens)

    def row(self) -> Game:
        with store.transaction(write=False) as s:
            return s.exec(select(Game).where(Game.public_id == self.game_id)).one()

    def url(self, seat: str) -> str:
        return f"/play/{self.game_id}/{seat}/{self.tokens[seat]}"

    # ---- outputs, by audience (None: anybody who knows the game's id)

    def pages(self, audience: str | None) -> dict[str, str]:
        """The pages the audience fetches now (rendered from the stored state at fetch time)."""
        paths = (["/", f"/game/{self.game_id}", f"/game/{self.game_id}/log", f"/game/{self.game_id}/log?start=0",
                  f"/game/{self.game_id}/feed.atom", f"/game/{self.game_id}/export.json",
                  f"/game/{self.game_id}/version",
                  f"/play/{self.game_id}/{self.seats[0]}/not-a-token"]
                 if audience is None else [self.url(audience), f"{self.url(audience)}/log",
                                           f"{self.url(audience)}/log?start=0", f"{self.url(audience)}/mail",
                                           f"{self.url(audience)}/version",
                                           f"{self.url(audience)}/deadlines.ics"])
        if audience is None:
            paths += ["/lobby", "/signin"]
        out = {}
        if audience is not None:  # the seat's player, signed in: their home and its calendar
            out |= self._normal(self.home_pages(audience))
        for path in paths:
            resp = self.client.get(path)
            assert resp.status_code in (200, 403, 404), (path, resp.status_code)
            out |= self._normal({path: resp.get_data(as_text=True)})
        return out

    @staticmethod
    def _normal(bodies: dict[str, str]) -> dict[str, str]:
        out = {}
        for path, body in bodies.items():
            if path.endswith(".json"):  # the export escapes non-ASCII; compare decoded text
                body = json.dumps(json.loads(body), ensure_ascii=False)
            body = _DTSTAMP.sub("DTSTAMP:now", body)  # a calendar's "made at" stamp is the clock, not data
            out[path] = _CSRF.sub(r"\1\2csrf\3", body)
        return out

    def home_pages(self, seat: str) -> dict[str, str]:
        """The home of the address on `seat` (signed in for these requests only), its feed, and an
        invitation's join page, which fills in the signed-in player's own address, name and zone."""
        address = f"{seat}@example.org"
        with store.transaction(write=False) as s:
            generation = service.session_generation(s, address)
        with self.client.session_transaction() as sess:  # as a used sign-in link leaves it
            sess["player"], sess["player_generation"] = address, generation
        try:
            home = self.client.get("/me")
            assert home.status_code == 200 and f"/play/{self.game_id}/{seat}/" in home.get_data(as_text=True)
            feed = self.client.get(f"/me/{calendar_token(address)}/deadlines.ics")
            assert feed.status_code == 200, feed.status_code
            join = self.client.get("/join/{}/{}/{}".format(*self.invite))
            body = join.get_data(as_text=True)
            assert join.status_code == 200 and f'value="{address}"' in body, "the join page fills in the own address"
            others = [f"{s}@example.org" for s in self.seats if s != seat and f"{s}@example.org" in body]
            assert not others, f"the join page for {address} shows other players' addresses: {others}"
        finally:
            with self.client.session_transaction() as sess:
                sess.pop("player", None)
                sess.pop("player_generation", None)
        return {"/me": home.get_data(as_text=True), "/me/deadlines.ics": feed.get_data(as_text=True), "/join": body}

    def errors(self, seat: str) -> dict[str, str]:
        """What the seat is told when its order is refused: a line of no grammar, and a stale page."""
        html_page = self.client.get(self.url(seat)).get_data(as_text=True)
        csrf = re.search(r'name="csrf_token"[^>]*value="([^"]*)"', html_page)
        data = {"csrf_token": csrf.group(1) if csrf else "", "prompt_token": "stale", "commands": "zzz not an order"}
        out = {}
        for name, form in (("bad line", {**data, "prompt_token": ""}), ("stale", data)):
            resp = self.client.post(self.url(seat), data=form)
            out[f"error: {name}"] = resp.get_data(as_text=True)
        return out

    def mail_errors(self) -> None:
        """Each seat mails a line of no grammar and STATUS: the reply (an outbox row the next
        `mails` reads) is the mail door's error message and status."""
        with store.transaction(write=False) as s:
            g = s.exec(select(Game).where(Game.public_id == self.game_id)).one()
            to = {r.seat: reply_address(g, r) for r in s.exec(select(Seat).where(Seat.game_id == g.id))}
        for seat in self.seats:
            self.mailed += 1
            raw = (f"From: {seat}@example.org\r\nTo: {to[seat]}\r\nSubject: orders\r\n"
                   f"Message-ID: <leak-{self.game_id}-{self.mailed}@client.test>\r\n\r\nzzz not an order\r\nSTATUS\r\n")
            with store.transaction() as s:
                tasks = service.receive_mail(s, raw.encode(), "smtp", f"{seat}@example.org", [], "127.0.0.1")
            for _kind, inbox_id in tasks:
                with store.transaction() as s:
                    service.process_mail(s, inbox_id)

    def mails(self) -> dict[str | None, dict[str, str]]:
        """Outbox rows (mail and chat webhook) by addressee seat; rows to no seat are public."""
        by: dict[str | None, dict[str, str]] = {}
        with store.transaction(write=False) as s:
            g = s.exec(select(Game).where(Game.public_id == self.game_id)).one()
            for m in s.exec(select(OutboxMessage).where(OutboxMessage.game_id == g.id)):
                if m.channel == "webhook":  # what the mailer posts
                    text = json.dumps(compose.chat_payload(m.subject, m.body or ""), ensure_ascii=False)
                else:
                    text = "\n".join([m.to, m.subject, m.body or "", json.dumps(m.headers, ensure_ascii=False)])
                by.setdefault(m.seat or None, {})[f"{m.channel} #{m.id} ({m.kind})"] = text
        return by

    # ---- what each audience may not see

    def hidden(self, audience: str | None) -> set[str]:
        """Renderings of what is hidden from `audience` now and was never shown to it."""
        with store.transaction(write=False) as s:
            g = s.exec(select(Game).where(Game.public_id == self.game_id)).one()
            state = g.state or {}
            values: set[Any] = set(leaves(state.get("secret")))
            for seat, part in (state.get("private") or {}).items():
                if seat != audience:
                    values |= set(leaves(part))
            rows = s.exec(select(RecordEntry).where(RecordEntry.game_id == g.id)).all()
            events = [ev for r in rows for ev in r.events or []]
            values |= {v for ev in events if not visible(ev, audience) for v in leaves(ev.get("data"))}
            sealed = [r for r in s.exec(select(SealedOrder).where(SealedOrder.game_id == g.id)) if r.seat != audience]
            orders = {self.game.format_order(r.order) for r in sealed}
            salts = {r.salt for r in sealed}
            if g.status != "finished":  # withheld entries' salts: secret until the end
                salts |= {salt for r in rows if r.kind == "orders"
                          for seat, salt in (r.data.get("salts") or {}).items() if seat != audience}
            shown = self._shown_now(g, audience, [ev for ev in events if visible(ev, audience)])
        known = self.known.setdefault(audience, set())
        needles = set(salts)
        # a value is known once any rendering of it was shown (a card's name in the log makes its
        # id public too); a sealed order's text once it was one of the audience's own choices
        for value in values - known:
            names = renderings(self.game.info.id, value)
            if any(name in shown for name in names):
                known.add(value)
            else:
                needles |= names
        needles |= {plain(o).strip() for o in orders if plain(o).strip() not in self.choices.get(audience, set())
                    and len(o) >= MIN_NEEDLE}
        return needles

    def remember(self) -> None:
        """Every step: what each audience's view holds (a card on a public display is no secret
        once taken into a hand) and the choices each seat was offered."""
        g = self.row()
        for audience in [None, *self.seats]:
            # numbers are left out: a count of 27 says nothing about card #27
            self.known.setdefault(audience, set()).update(
                v for v in leaves(self.game.view(g.state or {}, audience)) if isinstance(v, str))
        prompts = current_prompts(g)
        for seat, prompt in prompts.items():  # a card a seat was offered (a draft packet) it has seen
            self.known.setdefault(seat, set()).update(
                v for c in prompt.choices for v in leaves(c) if isinstance(v, str))
            self.choices.setdefault(seat, set()).update(
                plain(self.game.format_order(c)).strip() for c in prompt.choices)

    def _shown_now(self, g: Game, audience: str | None, events: list[dict[str, Any]]) -> str:
        """The engine's own renderings for the audience: its view, its log, its decision."""
        game = self.game
        view = game.view(g.state or {}, audience)
        parts = [game.render_view(view, audience), game.grammar_help(), *(game.render_event(ev) for ev in events)]
        parts += [str(v) for v in leaves(view)]
        prompt = current_prompts(g).get(audience) if audience else None
        if prompt is not None:
            label = getattr(game, "order_label", game.format_order)
            parts += [prompt.text or "", *(label(c) for c in prompt.choices),
                      *(game.format_order(c) for c in prompt.choices)]
        return plain("\n".join(parts))

    def secrets_for(self, audience: str | None) -> set[str]:
        planted = {c.casefold() for c, allowed in self.canaries.items() if audience not in allowed}
        return planted | self.hidden(audience)


def _leaks(outputs: dict[str, str], needles: set[str]) -> list[str]:
    found = []
    for name, text in outputs.items():
        flat = plain(text) + "\n" + text.casefold()
        for needle in sorted(needles):
            at = flat.find(needle)
            if at >= 0:
                found.append(f"{name}: {needle!r} in …{flat[max(0, at - 80):at + len(needle) + 40]}…")
    return found


# ---------------------------------------------------------------------------- setting a game up


def start_game(client: Any, game_id: str, seats: int, rnd: random.Random) -> LeakGame:
    canary = f"zq{rnd.getrandbits(48):012x}"
    seed = f"seed-canary-{canary}"
    with store.transaction() as s:
        created = service.create_game(s, game=game_id, seats=seats, options={}, title="Leak test")
        g = s.exec(select(Game).where(Game.public_id == created.game_id)).one()
        g.server_seed, g.seed_commitment = seed, seed_commitment(seed)  # a seed we can grep for
        s.add(g)
    tokens: dict[str, str] = {}
    for i, (seat, invite) in enumerate(created.invites.items()):
        with store.transaction() as s:
            joined = service.join_game(s, created.game_id, seat, invite, name=f"Player {i + 1}",
                                       email=f"{seat}@example.org", entropy=f"{canary}-{i}")
            row = s.exec(select(Seat).where(Seat.seat == seat, Seat.seat_token_hash.is_not(None),  # type: ignore[union-attr]
                                            Seat.game_id == s.exec(select(Game.id).where(
                                                Game.public_id == created.game_id)).one())).one()
            row.chat_webhook = f"https://chat.example.org/hook/{seat}"  # webhook rows are written, never sent here
            s.add(row)
        tokens[seat] = joined.seat_token
    for seat in tokens:  # each seat's address is verified (its player has a home)
        _verify(f"{seat}@example.org")
    with store.transaction() as s:  # another game with open seats: its join page, seen signed in
        spare = service.create_game(s, game=game_id, seats=seats, options={}, title="Leak test invitations")
    spare_seat, spare_invite = next(iter(spare.invites.items()))
    lg = LeakGame(client, created.game_id, get_game(game_id), created.admin_token, tokens, seed,
                  (spare.game_id, spare_seat, spare_invite))
    lg.canaries[seed] = set()
    lg.canaries[seed_commitment(seed)] = {None, *tokens}  # the commitment is public
    _plant(lg, canary)
    return lg


def _verify(address: str) -> None:
    with store.transaction() as s:
        service.request_sign_in(s, address)
        body = s.exec(select(OutboxMessage).where(OutboxMessage.to == address,
                                                  OutboxMessage.kind == "signin")).one().body
    with store.transaction() as s:
        service.redeem_sign_in(s, re.search(r"/signin/([^>\s]+)>", body).group(1))


def _plant(lg: LeakGame, canary: str) -> None:
    """Standing orders (a kind no decision has, so they wait all game), private notes and private
    press."""
    with store.transaction(write=False) as s:
        prompts = current_prompts(s.exec(select(Game).where(Game.public_id == lg.game_id)).one())
    sample = next(lg.game.format_order(p.choices[0]) for p in prompts.values() if p.choices)
    for seat in lg.seats:
        kind = f"{canary}-standing-{seat}"
        with store.transaction() as s:
            service.set_standing_orders(s, lg.game_id, seat, lg.tokens[seat], f"ALWAYS {kind}: {sample}")
        lg.canaries[kind] = {seat}
        notes = f"{canary}-notes-of-{seat}"  # private notes (issue 25): their seat's page only
        with store.transaction() as s:
            service.save_notes(s, lg.game_id, seat, lg.tokens[seat], f"plan: {notes}")
        lg.canaries[notes] = {seat}
    if len(lg.seats) > 2:  # press between two seats; a third must not read it
        sender, to = lg.seats[0], lg.seats[1]
        text = f"{canary}-press-for-{to}-only"
        with store.transaction() as s:
            service.send_press(s, lg.game_id, sender, lg.tokens[sender], [to], text)
        lg.canaries[text] = {sender, to}


def play_step(lg: LeakGame, rnd: random.Random) -> bool:
    """One random decision (or forced defaults); False once the game is over."""
    g = lg.row()
    if g.status == "finished":
        return False
    prompts = current_prompts(g)
    waiting = sorted(prompts)
    if not waiting:
        return False
    if rnd.random() < DEFAULT_RATE:
        with store.transaction() as s:
            service.force_defaults(s, lg.game_id, lg.admin)
        return True
    seat = rnd.choice(waiting)
    with store.transaction() as s:
        decision, sealed_in = service.seat_decision(s, lg.game_id, seat, lg.tokens[seat])
    if decision is None or sealed_in:
        seat = next((w for w in waiting if w != seat), seat)
        with store.transaction() as s:
            decision, sealed_in = service.seat_decision(s, lg.game_id, seat, lg.tokens[seat])
        if decision is None or sealed_in:
            with store.transaction() as s:
                service.force_defaults(s, lg.game_id, lg.admin)
            return True
    order = rnd.choice(decision["choices"])
    with store.transaction() as s:
        service.submit_order(s, lg.game_id, seat, lg.tokens[seat], order, None)
    return True


# ---------------------------------------------------------------------------- the checks


def check(lg: LeakGame) -> list[str]:
    """Both oracles over everything each audience can reach now."""
    problems = []
    lg.mail_errors()
    mails = lg.mails()
    for audience in [None, *lg.seats]:
        needles = lg.secrets_for(audience)
        pages = lg.pages(audience)
        outputs = pages | mails.get(audience, {})
        if audience is not None:
            outputs |= lg.errors(audience)
        problems += [f"seen by {audience or 'the public'} in {leak}" for leak in _leaks(outputs, needles)]
        problems += check_scrambled(lg, audience, pages)
    return problems


def check_scrambled(lg: LeakGame, audience: str | None, before: dict[str, str]) -> list[str]:
    """Pages must not change when what their reader may not see changes."""
    if audience is not None:  # a seat's first view marks its press read: compare two later views
        before = lg.pages(audience)
    state = lg.row().state or {}
    scrambled = dict(state)
    scrambled["secret"] = _scramble(state.get("secret", {}))
    scrambled["private"] = {s: (p if s == audience else _scramble(p)) for s, p in (state.get("private") or {}).items()}
    _store_state(lg, scrambled)  # state_hash is kept, so the cached prompts stay the real ones
    try:
        after = lg.pages(audience)
    finally:
        _store_state(lg, state)
    return [f"{path} for {audience or 'the public'} depends on hidden data" for path in before
            if before[path] != after[path]]


def _store_state(lg: LeakGame, state: dict[str, Any]) -> None:
    with store.transaction() as s:
        g = s.exec(select(Game).where(Game.public_id == lg.game_id)).one()
        g.state = state
        s.add(g)


# ---------------------------------------------------------------------------- the test


@pytest.fixture
def leak_client(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_MAIL_DIR", str(tmp_path / "mail"))
    monkeypatch.setenv("PBEM_MAIL_DNS", "0")
    monkeypatch.setenv("PBEM_MAIL_DOMAIN", "pbem.test")
    monkeypatch.delenv("SMTP_HOST", raising=False)
    from web import create_app

    app = create_app({
        "TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'leaks.sqlite3'}",
        "SECRET_KEY": "test-secret", "PBEM_BASE_URL": "http://pbem.test", "PBEM_VAR_DIR": str(tmp_path / "var"),
        "PBEM_ENQUEUE": lambda tasks: None,  # outbox rows stay as written: the test reads them
    })
    yield app.test_client()
    store.configure(None)


@pytest.mark.parametrize(("game_id", "seats", "index"), _cases())
def test_no_output_shows_a_secret_before_its_time(leak_client, game_id: str, seats: int, index: int) -> None:
    rnd = random.Random(f"leaks-{game_id}-{seats}-{index}")
    lg = start_game(leak_client, game_id, seats, rnd)
    lg.remember()
    problems = check(lg)
    steps = 0
    while not problems and steps < STEPS and play_step(lg, rnd):
        steps += 1
        lg.remember()
        if steps % CHECK_EVERY == 0 and lg.row().status != "finished":
            problems += check(lg)
    assert not problems, f"{game_id} ({seats} seats) after {steps} steps:\n" + "\n".join(problems[:20])
    assert steps >= min(STEPS, 10), "the game was played"
    mails = lg.mails()
    assert all(any("(reply)" in name for name in mails.get(seat, {})) for seat in lg.seats), \
        "each seat's mailed error got its reply (so the mail door's answers were checked)"
    # the oracle can fail: the seed is a needle for everybody, so a finished game's page shows it
    assert lg.canaries[lg.seed] == set()


def test_the_check_fails_on_an_export_that_withholds_nothing(leak_client, monkeypatch) -> None:
    """The oracle can fail: with the export's redaction switched off, the first revealed Doge
    placement round shows its salts (and marker values) to the public."""
    from adjudicator.service.pages import reading

    monkeypatch.setattr(reading, "redact_entries", lambda entries: (entries, []))
    rnd = random.Random("leaks-plant")
    lg = start_game(leak_client, "doge", 3, rnd)
    for _ in range(40):
        with store.transaction(write=False) as s:
            g = s.exec(select(Game).where(Game.public_id == lg.game_id)).one()
            revealed = any(r.data.get("salts") for r in s.exec(select(RecordEntry).where(RecordEntry.game_id == g.id)))
        if revealed:
            break
        play_step(lg, rnd)
    assert revealed
    problems = check(lg)
    assert any("the public in /game/" in p and "export.json" in p for p in problems), problems


def test_the_check_finds_notes_shown_to_another_seat(leak_client, monkeypatch) -> None:
    """The oracle can fail on notes (issue 25): with the notes read by game instead of by seat,
    another seat's page shows the first seat's notes."""
    from adjudicator.service.people import notes
    from adjudicator.store import SeatNote

    lg = start_game(leak_client, "1960", 2, random.Random("leaks-notes"))
    monkeypatch.setattr(notes, "_row", lambda s, g, seat: s.exec(
        select(SeatNote).where(SeatNote.game_id == g.id).order_by(SeatNote.id)).first())
    problems = check(lg)
    first, second = lg.seats
    assert any(f"seen by {second} in /play/" in p and f"-notes-of-{first}" in p for p in problems), problems


@pytest.mark.parametrize(("game_id", "seats", "index"), _cases())
def test_the_moderator_tools_outputs_show_no_secret(leak_client, game_id: str, seats: int, index: int) -> None:
    """Issue 13: after a rollback (undone entries, private lines included, stay in the record and
    the log), a broadcast and a shortened deadline, every output is checked again; the moderator's
    mails to the seats are among them."""
    rnd = random.Random(f"leaks-moderator-{game_id}-{seats}-{index}")
    lg = start_game(leak_client, game_id, seats, rnd)
    lg.remember()
    steps = 0
    while steps < 24 and play_step(lg, rnd):
        steps += 1
        lg.remember()
    g = lg.row()
    assert g.status == "running" and g.record_length > 3, "the game is under way"
    with store.transaction() as s:
        service.rollback(s, lg.game_id, lg.admin, g.record_length // 2, "leak check")
    lg.remember()
    canary = f"zq{rnd.getrandbits(48):012x}-moderator"
    with store.transaction() as s:
        service.broadcast(s, lg.game_id, lg.admin, f"news {canary}")
    lg.canaries[f"news {canary}"] = set(lg.seats)  # to every seat, never the public while the game runs
    if lg.row().due_at is not None:
        with store.transaction() as s:
            service.shorten_deadline(s, lg.game_id, lg.admin, 1)
    problems = check(lg)
    # the oracle's needles skip short values (a card colour, a count): the private log lines of the
    # undone entries, as whole sentences, must not reach the public either
    with store.transaction(write=False) as s:
        rows = s.exec(select(RecordEntry).where(RecordEntry.game_id == g.id, RecordEntry.seq > g.record_length // 2))
        private = {plain(lg.game.render_event(ev)).strip() for r in rows for ev in r.events or [] if ev.get("audience")}
    public = "\n".join(plain(body) for body in lg.pages(None).values())
    problems += [f"the undone private line {line!r} is public" for line in sorted(private) if line in public]
    assert not problems, f"{game_id} ({seats} seats) after the moderator tools:\n" + "\n".join(problems[:20])
    assert "[undone by a rollback]" in lg.client.get(f"/game/{lg.game_id}/log?start=0").get_data(as_text=True)
    assert any("(moderator)" in name for seat in lg.seats for name in lg.mails().get(seat, {}))
