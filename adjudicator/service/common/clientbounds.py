"""Bounds per client network on the work anyone may ask for without signing in: creating games
and taking seats (docs/security.md, "Bounds"). A network (clientnet.py: IPv4 /24, IPv6 /56) is
stored only as a keyed hash; a signed-in player's network has a higher bound. Callers that are
not a web client (the command line, the lobby's signed-in seats) pass no client and are not
counted."""

from __future__ import annotations

import hashlib
import hmac
import os
from datetime import datetime, timedelta

from sqlmodel import Session, select

from adjudicator.i18n import _
from adjudicator.store import ClientAction

from .clientnet import client_network
from .clock import as_utc, format_deadline, window_free_at
from .errors import TooMany
from .serverkey import server_key

WINDOW = timedelta(hours=1)
BOUNDS = {  # (anonymous, signed in) per network and hour
    "create": (int(os.environ.get("PBEM_CREATES_PER_NETWORK_HOUR", "10")),
               int(os.environ.get("PBEM_CREATES_PER_NETWORK_HOUR_SIGNED_IN", "30"))),
    "join": (int(os.environ.get("PBEM_JOINS_PER_NETWORK_HOUR", "30")),
             int(os.environ.get("PBEM_JOINS_PER_NETWORK_HOUR_SIGNED_IN", "90"))),
}


def network_tag(client: str) -> str:
    """A short keyed hash of the client's network (requests with no readable address share one)."""
    key = server_key().encode()
    return hmac.new(key, f"client network {client_network(client)}".encode(), hashlib.sha256).hexdigest()[:16]


def count_client(s: Session, client: str, action: str, signed_in: bool, now: datetime) -> None:
    """Count one `action` ("create" or "join") of the client's network, or refuse it (TooMany,
    saying from when it may again) past the network's bound for the last hour."""
    tag = network_tag(client)
    bound = BOUNDS[action][1 if signed_in else 0]
    times = sorted(as_utc(at) for at in s.exec(select(ClientAction.at).where(
        ClientAction.network == tag, ClientAction.action == action, ClientAction.at >= now - WINDOW)).all())
    free = window_free_at(times, bound, WINDOW)
    if free is not None:
        what = (_("%(count)s games were created from your network in the last hour, the most allowed", count=len(times))
                if action == "create" else
                _("%(count)s seats were taken from your network in the last hour, the most allowed", count=len(times)))
        hint = "" if signed_in else " " + _("Signed-in players may do more.")
        raise TooMany(_("Not done: %(what)s. Try again from %(time)s.", what=what,
                        time=format_deadline(free, "UTC")) + hint, free)
    s.add(ClientAction(network=tag, action=action, at=now))
