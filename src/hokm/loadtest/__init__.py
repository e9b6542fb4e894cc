"""Load and failure testing of the game server over real WebSockets.

- :mod:`.client`: headless players (one WebSocket per seat) that play whole tables at a chosen pace
  and time each action from the frame sent to its event received;
- :mod:`.echo`: a bare WebSocket echo server on the server's WebSocket library: the transport floor;
- :mod:`.nodes`: start and stop ``hokm serve`` processes (one node, or several sharing Redis);
- :mod:`.run`: one measured run: tables, then the echo floor, then the report.
"""
