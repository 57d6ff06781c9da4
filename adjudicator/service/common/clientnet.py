"""The network an anonymous request comes from, the unit that per-client bounds count.

One attacker easily holds many addresses of one network (an IPv6 /56 is what a home line is
given; a rented IPv4 block shares its /24), so bounds on anonymous work count networks, not
addresses: IPv4 /24, IPv6 /56. An IPv4 address mapped into IPv6 counts as its IPv4 network.
"""

from __future__ import annotations

import ipaddress

IPV4_PREFIX = 24
IPV6_PREFIX = 56


def client_network(client: str) -> str:
    """The client's network in CIDR form ("203.0.113.0/24", "2001:db8:ab00::/56"), or "" when the
    address is missing or unreadable (such requests share one bucket at the caller's choice)."""
    try:
        ip = ipaddress.ip_address((client or "").strip())
    except ValueError:
        return ""
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = IPV4_PREFIX if ip.version == 4 else IPV6_PREFIX
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))
