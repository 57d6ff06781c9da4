from adjudicator.service.common.clientnet import client_network


def test_ipv4_counts_its_slash_24() -> None:
    assert client_network("203.0.113.77") == "203.0.113.0/24"
    assert client_network("203.0.113.1") == client_network("203.0.113.254")
    assert client_network("203.0.114.1") != client_network("203.0.113.1")


def test_ipv6_counts_its_slash_56() -> None:
    assert client_network("2001:db8:ab12:3400::1") == "2001:db8:ab12:3400::/56"
    # 256 /64s of one /56 are one client
    assert client_network("2001:db8:ab12:34ff::9") == client_network("2001:db8:ab12:3400::1")
    assert client_network("2001:db8:ab12:3500::1") != client_network("2001:db8:ab12:3400::1")


def test_mapped_ipv4_is_its_ipv4_network() -> None:
    assert client_network("::ffff:198.51.100.7") == "198.51.100.0/24"


def test_unreadable_address_is_empty() -> None:
    assert client_network("") == ""
    assert client_network("not an address") == ""
