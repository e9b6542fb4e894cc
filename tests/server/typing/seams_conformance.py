"""Checked by mypy (``tests/server/test_seams.py``), never imported by pytest: both lobbies and
both table handles satisfy the Protocols the routes and the WebSocket loop are written against."""

from __future__ import annotations

from hokm.server.cluster.lobby import ClusterLobby, RoutedTable
from hokm.server.lobby import Lobby
from hokm.server.seams import LobbyProtocol, TableHandle
from hokm.server.table import TableActor


def single_node(lobby: Lobby, actor: TableActor) -> tuple[LobbyProtocol, TableHandle]:
    return lobby, actor


def cluster_node(lobby: ClusterLobby, table: RoutedTable) -> tuple[LobbyProtocol, TableHandle]:
    return lobby, table
