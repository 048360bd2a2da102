"""What a client's address is counted as by the server's caps and rates per address
(:func:`address_key`); one small module that the limits of every layer (HTTP, WebSocket,
sockets, tables) import, without importing each other."""

from __future__ import annotations

import functools
import ipaddress


@functools.lru_cache(maxsize=4096)
def address_key(host: str) -> str:
    """What a client address is counted as by every cap and rate per address: an IPv4
    address itself; an IPv6 address its /64 network, written ``2001:db8:1:2::/64`` (one
    client, a home or a server, usually holds a whole /64: counted per address, it could
    open as many connections and spend as many rates as it has addresses); an IPv4-mapped
    IPv6 address (``::ffff:192.0.2.1``, from a socket listening on both) its IPv4 address;
    a loopback or link-local IPv6 address (``::1``, ``fe80::...``: every machine of a
    network shares ``fe80::/64``) itself; anything else (no address: ``""``, a test
    client's name) as it is."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if not isinstance(ip, ipaddress.IPv6Address):
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if ip.is_loopback or ip.is_link_local:
        return str(ip)
    return str(ipaddress.IPv6Network((int(ip), 64), strict=False))
